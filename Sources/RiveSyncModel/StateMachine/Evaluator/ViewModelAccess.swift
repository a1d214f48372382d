/// Where a view-model value lives: an instance's property.
public struct ValueLocation: Sendable, Hashable {
    public var instance: InstanceID
    public var property: String

    public init(instance: InstanceID, property: String) {
        self.instance = instance
        self.property = property
    }
}

/// What a state machine instance reads and writes: the view-model instances bound to it. The
/// `FileRuntime` gives one that records every change as an effect of origin `.stateMachine`.
public protocol ViewModelAccess {
    /// The data contexts of the nested artboards being run, innermost last: a path whose
    /// view model is a context's starts there; otherwise at the bound instances.
    var contexts: [InstanceID] { get set }
    /// The value a data bind's source path (view-model index, then property indices) leads
    /// to from the contexts or the bound instances; nil when it leads nowhere.
    func locate(_ path: [Int]) -> ValueLocation?
    /// The value at a location.
    func value(at location: ValueLocation) -> PropertyValue?
    /// The values of the enum the property at a location holds, in file order (empty when it
    /// holds no enum).
    func enumValues(at location: ValueLocation) -> [String]
    /// Writes a value the way a client's write would (a write of the value already there
    /// changes nothing and returns false).
    mutating func write(_ value: PropertyValue, at location: ValueLocation) -> Bool
    /// Fires a trigger.
    mutating func fire(at location: ValueLocation)
}

extension ViewModelAccess {
    /// An enum value's index among its enum's values (nil when not an enum value).
    func enumIndex(at location: ValueLocation) -> UInt64? {
        guard case .enumValue(let name) = value(at: location), let index = enumValues(at: location).firstIndex(of: name) else {
            return nil
        }
        return UInt64(index)
    }
}
