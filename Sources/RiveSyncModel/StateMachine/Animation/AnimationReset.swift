/// The values a set of animations' number and color properties return to before they are
/// applied (Rive's `AnimationReset`): used by a 1D blend state with the reset flag, and by a
/// state machine layer when it resets what the states it leaves had keyed.
///
/// As in Rive, values are kept as Float: a color goes through a Float and back, so its low
/// bits may round (Rive's runtime does the same).
public struct AnimationReset: Sendable, Hashable {
    /// Each keyed property and the value it is reset to, in the order Rive writes them.
    public private(set) var values: [(property: AnimatedProperty, value: AnimatedValue)]

    /// Every number and color property the animations key (each once, the first animation to
    /// key it deciding), valued from the first animation's first keyframe when
    /// `useFirstAsBaseline` and the first animation keys it, else from `store` as it is now.
    public init<Store: ComponentPropertyStore>(
        animations: [LinearAnimation], store: Store, useFirstAsBaseline: Bool
    ) {
        var seen: Set<AnimatedProperty> = []
        var objectOrder: [UInt32] = []
        var byObject: [UInt32: [(AnimatedProperty, AnimatedValue)]] = [:]
        for (index, animation) in animations.enumerated() {
            let isBaseline = useFirstAsBaseline && index == 0
            for object in animation.keyedObjects {
                if byObject[object.objectId] == nil {
                    objectOrder.append(object.objectId)
                    byObject[object.objectId] = []
                }
                for property in object.keyedProperties {
                    let target = AnimatedProperty(component: object.objectId, property: property.propertyKey)
                    guard !seen.contains(target), let kind = RiveDefinitions.property(property.propertyKey)?.kind,
                        kind == .double || kind == .color
                    else { continue }
                    seen.insert(target)
                    let value: AnimatedValue
                    switch (isBaseline, property.keyFrames.first?.value, store.value(of: target)) {
                    case (true, .double(let first), _): value = .double(first)
                    case (true, .color(let first), _): value = .color(Self.throughFloat(first))
                    case (false, .some, .double(let current)) where kind == .double: value = .double(current)
                    case (false, .some, .color(let current)) where kind == .color:
                        value = .color(Self.throughFloat(current))
                    default: value = kind == .double ? .double(0) : .color(0)
                    }
                    byObject[object.objectId, default: []].append((target, value))
                }
            }
        }
        values = objectOrder.flatMap { byObject[$0] ?? [] }.map { (property: $0.0, value: $0.1) }
    }

    /// The reset values as persisted (`StateMachineInstance.persistentJSON`).
    init(values: [(property: AnimatedProperty, value: AnimatedValue)]) {
        self.values = values
    }

    /// Writes every reset value into `store`.
    public func apply<Store: ComponentPropertyStore>(to store: inout Store) {
        for (property, value) in values { store.set(value, of: property) }
    }

    /// A color stored as a Float and read back, as Rive's reset buffer does.
    static func throughFloat(_ color: UInt32) -> UInt32 {
        let float = Float(color)
        return float >= 4_294_967_296 ? UInt32.max : UInt32(float)
    }

    public static func == (lhs: AnimationReset, rhs: AnimationReset) -> Bool {
        lhs.values.elementsEqual(rhs.values) { $0.property == $1.property && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for (property, value) in values {
            hasher.combine(property)
            hasher.combine(value)
        }
    }
}
