/// A place an instance is bound in a target: the main slot or a global view model's slot.
///
/// Paths start at a slot: plain paths (`mood`, `header/title`) start at the main instance; a
/// first segment `@Name` starts at the global `Name` (`@Theme/background`).
public enum BindingSlot: Sendable, Hashable, CustomStringConvertible {
    case main
    case global(String)

    /// The path prefix of the slot: "" for main, `@Name` for a global (its name escaped as in
    /// every path, `PropertyPath.escape`).
    public var pathPrefix: String {
        switch self {
        case .main: return ""
        case .global(let name): return "@" + PropertyPath.escape(name)
        }
    }

    public var description: String {
        switch self {
        case .main: return "main"
        case .global(let name): return name
        }
    }
}

/// A slot with the instance bound in it (nil while empty).
public struct Binding: Sendable, Hashable {
    public var slot: BindingSlot
    public var instance: InstanceID?

    public init(slot: BindingSlot, instance: InstanceID?) {
        self.slot = slot
        self.instance = instance
    }
}
