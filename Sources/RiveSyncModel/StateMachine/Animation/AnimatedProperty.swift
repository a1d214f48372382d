/// A component property an animation writes: the component's artboard-local id (its index among the
/// artboard's components, the artboard itself being 0) and Rive's property key.
public struct AnimatedProperty: Sendable, Hashable {
    public var component: UInt32
    public var property: Int

    public init(component: UInt32, property: Int) {
        self.component = component
        self.property = property
    }
}
