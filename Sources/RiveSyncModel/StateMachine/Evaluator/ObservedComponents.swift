/// The artboard's component properties the state machine observes (those its data binds
/// target and its conditions compare) as an animation writes them: the part of Rive's
/// artboard instance that can reach a view model or a transition. Writes to any other
/// property are dropped; a write that changes a value is remembered in ``changed``.
struct ObservedComponents: ComponentPropertyStore {
    var values: [BoundComponentProperty: PropertyValue]
    let observed: Set<BoundComponentProperty>
    let definition: StateMachineDefinition
    /// The observed properties whose value a write changed.
    var changed: Set<BoundComponentProperty> = []

    func value(of property: AnimatedProperty) -> AnimatedValue? {
        let key = BoundComponentProperty(component: Int(property.component), key: property.property)
        guard observed.contains(key), let value = values[key] ?? StateMachineInstance.storedValue(key, in: definition) else {
            return nil
        }
        let kind = RiveDefinitions.property(property.property)?.kind
        switch value {
        case .number(let number):
            switch kind {
            case .uint?: return .uint(number.isNaN ? 0 : UInt32(clamping: Int64(number.rounded(.down))))
            case .int?: return .int(number.isNaN ? 0 : Int32(clamping: Int64(number.rounded(.down))))
            default: return .double(number)
            }
        case .color(let color): return .color(color)
        case .boolean(let flag): return .bool(flag)
        case .string(let text): return .string(text)
        default: return nil
        }
    }

    mutating func set(_ value: AnimatedValue, of property: AnimatedProperty) {
        let key = BoundComponentProperty(component: Int(property.component), key: property.property)
        guard observed.contains(key) else { return }
        let new: PropertyValue
        switch value {
        case .double(let number): new = .number(number)
        case .color(let color): new = .color(color)
        case .bool(let flag): new = .boolean(flag)
        case .uint(let number):
            new = RiveDefinitions.property(property.property)?.kind == .bool ? .boolean(number != 0) : .number(Float(number))
        case .int(let number): new = .number(Float(number))
        case .string(let text): new = .string(text)
        }
        guard (values[key] ?? StateMachineInstance.storedValue(key, in: definition)) != new else { return }
        values[key] = new
        changed.insert(key)
    }
}
