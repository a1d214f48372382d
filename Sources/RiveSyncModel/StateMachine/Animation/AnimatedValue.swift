/// A component property's value as an animation reads and writes it, in the kind Rive's
/// runtime stores it (`CoreRegistry`'s double, color, bool, uint, int and string setters).
public enum AnimatedValue: Sendable, Hashable {
    /// A number (Rive calls the kind "double" but keeps it in 32 bits).
    case double(Float)
    /// 0xAARRGGBB.
    case color(UInt32)
    case bool(Bool)
    /// Ids, enums, flags and counts.
    case uint(UInt32)
    case int(Int32)
    case string(String)
}

/// Where a component property lives: the component's artboard-local id (its index among the
/// artboard's components, the artboard itself being 0) and Rive's property key.
public struct ComponentProperty: Sendable, Hashable {
    public var component: UInt32
    public var property: Int

    public init(component: UInt32, property: Int) {
        self.component = component
        self.property = property
    }
}

/// The component properties an animation writes into: the evaluator's artboard instance, or
/// ``ComponentPropertyTable``.
public protocol ComponentPropertyStore {
    /// The property's current value; nil if the store does not hold it (mixing then starts
    /// from zero, or false, or the empty string).
    func value(of property: ComponentProperty) -> AnimatedValue?
    /// Sets the property's value.
    mutating func set(_ value: AnimatedValue, of property: ComponentProperty)
}

/// A plain dictionary of component property values.
public struct ComponentPropertyTable: ComponentPropertyStore, Sendable, Hashable {
    public var values: [ComponentProperty: AnimatedValue]

    public init(_ values: [ComponentProperty: AnimatedValue] = [:]) {
        self.values = values
    }

    public func value(of property: ComponentProperty) -> AnimatedValue? { values[property] }

    public mutating func set(_ value: AnimatedValue, of property: ComponentProperty) {
        values[property] = value
    }

    /// The value of `property` on `component`.
    public subscript(component: UInt32, property: Int) -> AnimatedValue? {
        values[ComponentProperty(component: component, property: property)]
    }
}
