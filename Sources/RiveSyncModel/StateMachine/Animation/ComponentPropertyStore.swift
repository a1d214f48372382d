/// The component properties an animation writes into: the evaluator's artboard instance, or
/// ``ComponentPropertyTable``.
public protocol ComponentPropertyStore {
    /// The property's current value; nil if the store does not hold it (mixing then starts
    /// from zero, or false, or the empty string).
    func value(of property: AnimatedProperty) -> AnimatedValue?
    /// Sets the property's value.
    mutating func set(_ value: AnimatedValue, of property: AnimatedProperty)
}

/// A plain dictionary of component property values.
public struct ComponentPropertyTable: ComponentPropertyStore, Sendable, Hashable {
    public var values: [AnimatedProperty: AnimatedValue]

    public init(_ values: [AnimatedProperty: AnimatedValue] = [:]) {
        self.values = values
    }

    public func value(of property: AnimatedProperty) -> AnimatedValue? { values[property] }

    public mutating func set(_ value: AnimatedValue, of property: AnimatedProperty) {
        values[property] = value
    }

    /// The value of `property` on `component`.
    public subscript(component: UInt32, property: Int) -> AnimatedValue? {
        values[AnimatedProperty(component: component, property: property)]
    }
}
