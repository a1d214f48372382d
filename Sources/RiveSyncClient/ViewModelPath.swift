internal import RiveSyncModel

/// A path to a property of a target (PROTOCOL.md §1, §4), built from Rive's names: each name is
/// escaped as in a JSON Pointer (`~` → `~0`, `/` → `~1`), so a property named `BG On/Off` is
/// reachable (`BG On~1Off`). Pass `description` wherever a path is taken:
/// `target.setValue(at: ViewModelPath("BG On/Off").description, to: .boolean(true))`, or
/// `ViewModelPath.global("Theme").appending("background")` for `@Theme/background`.
public struct ViewModelPath: Sendable, Hashable, CustomStringConvertible {
    /// The path as the daemon reads it, its names escaped.
    public let description: String

    private init(text: String) { description = text }

    /// A property of the target's main instance (or of the instance a handle stands for).
    public init(_ name: String) {
        description = Self.escape(name)
    }

    /// The global slot `name` (`@Theme`), for its properties (`appending`) or a subscription.
    public static func global(_ name: String) -> ViewModelPath { ViewModelPath(text: "@" + Self.escape(name)) }

    /// The instance with the daemon's id `id` (`#17`), for its properties (`appending`).
    public static func instance(_ id: UInt64) -> ViewModelPath { ViewModelPath(text: "#\(id)") }

    /// This path followed by the property `name` (of the nested instance or list item it ends at).
    public func appending(_ name: String) -> ViewModelPath { ViewModelPath(text: description + "/" + Self.escape(name)) }

    /// This path (a list) followed by the item at `index`.
    public func appending(index: Int) -> ViewModelPath { ViewModelPath(text: description + "/\(index)") }

    /// One name as a path segment: `~` written `~0`, `/` written `~1`.
    public static func escape(_ name: String) -> String { PropertyPath.escape(name) }

    /// The name a path segment writes; nil when a `~` is followed by anything but `0` or `1`.
    public static func unescape(_ segment: String) -> String? { PropertyPath.unescape(segment) }
}
