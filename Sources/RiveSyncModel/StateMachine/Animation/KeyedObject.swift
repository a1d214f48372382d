/// One component keyed by an animation (Rive's `KeyedObject`, type 25) and its keyed
/// properties.
public struct KeyedObject: Sendable, Hashable {
    /// The component's artboard-local id (Rive's `objectId`, key 51).
    public var objectId: UInt32
    public var keyedProperties: [KeyedProperty]

    public init(objectId: UInt32, keyedProperties: [KeyedProperty]) {
        self.objectId = objectId
        self.keyedProperties = keyedProperties
    }
}
