/// An instance a designer authored for a view model, with the values it stores.
public struct AuthoredInstance: Sendable, Hashable {
    /// The editor's instance name (may be empty in older exports).
    public var name: String
    /// Stored values keyed by property name. A property with no entry takes the blank default.
    public var values: [String: AuthoredValue]

    public init(name: String, values: [String: AuthoredValue] = [:]) {
        self.name = name
        self.values = values
    }
}

/// A value stored in an authored instance.
public enum AuthoredValue: Sendable, Hashable {
    case number(Float)
    case string(String)
    case boolean(Bool)
    /// ARGB, alpha in the top byte.
    case color(UInt32)
    /// The enum value's name.
    case enumValue(String)
    /// A trigger's stored fire count (0 at rest).
    case trigger(UInt32)
    /// A nested view model value: which authored instance it starts as (nil = null).
    case viewModel(InstanceReference?)
    /// List items, each an authored instance of some view model.
    case list([InstanceReference])
    /// An image, font or blob value: the file asset's name (nil = none).
    case asset(String?)
    /// An artboard value: the artboard's name (nil = none).
    case artboard(String?)
    case symbolListIndex(UInt32)
}

/// A reference to an authored instance: a view model and the instance's position in it.
///
/// Positions are used, not names, because files may hold several instances with one name.
public struct InstanceReference: Sendable, Hashable {
    public var viewModel: String
    public var index: Int

    public init(viewModel: String, index: Int) {
        self.viewModel = viewModel
        self.index = index
    }
}
