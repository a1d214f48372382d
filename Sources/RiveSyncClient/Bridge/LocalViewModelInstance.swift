/// A local Rive view model instance, as `RiveSyncBridge` drives it: the calls of Rive's
/// `ViewModelInstance`, by path. `RiveRuntimeInstance` adapts Rive's own class (Apple
/// platforms, `RiveRuntime`); tests use a double with Rive's semantics.
///
/// The semantics the bridge relies on are Rive's: calls are queued and processed in call order;
/// setters return at once and a setter of the value already there changes nothing; `value`
/// reads after every call made before it; value streams yield changes only (never the value
/// at subscription), coalesced, including the changes this client made; a trigger stream
/// yields once per processed batch in which the trigger fired.
@MainActor
public protocol LocalViewModelInstance: AnyObject {
    /// Queues a write (Rive: `setValue(of:to:)` with the property handle of `value`'s kind).
    func setValue(_ value: LocalValue, at path: String)
    /// The value after every call queued before (Rive: `value(of:)`).
    func value(at path: String, kind: LocalValue.Kind) async throws -> LocalValue
    /// Changes of the value (Rive: `valueStream(of:)`).
    func valueStream(at path: String, kind: LocalValue.Kind) -> AsyncThrowingStream<LocalValue, any Error>
    /// Queues a fire (Rive: `fire(trigger:)`).
    func fire(at path: String)
    /// The trigger's fires (Rive: `stream(of: TriggerProperty)`).
    func triggerStream(at path: String) -> AsyncThrowingStream<Void, any Error>
    /// The nested instance, resolved in call order (Rive: `value(of: ViewModelInstanceProperty)`).
    func instance(at path: String) -> Self
    /// Queues a nested replacement (Rive: `setValue(of: ViewModelInstanceProperty, to:)`).
    func setInstance(_ instance: Self, at path: String)
    /// Queues list edits (Rive's `appendInstance`, `insertInstance`, `removeInstance(at:)`,
    /// `swapInstance`).
    func appendInstance(_ instance: Self, to path: String)
    func insertInstance(_ instance: Self, to path: String, at index: Int32)
    func removeInstance(at index: Int32, from path: String)
    func swapInstance(atIndex index: Int32, withIndex other: Int32, in path: String)
    /// The list's size after every call queued before (Rive: `size(of:)`).
    func size(of path: String) async throws -> Int
}

/// A value the bridge moves between a local instance and the daemon.
public enum LocalValue: Sendable, Hashable {
    case string(String)
    case number(Float)
    case boolean(Bool)
    case color(Color)
    case enumValue(String)

    /// Which property handle a value belongs to.
    public enum Kind: Sendable, Hashable {
        case string, number, boolean, color, enumValue
    }

    public var kind: Kind {
        switch self {
        case .string: .string
        case .number: .number
        case .boolean: .boolean
        case .color: .color
        case .enumValue: .enumValue
        }
    }

    init?(_ value: DynamicValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .number(let n): self = .number(n)
        case .boolean(let b): self = .boolean(b)
        case .color(let c): self = .color(c)
        case .enumValue(let e): self = .enumValue(e)
        default: return nil
        }
    }

    var dynamic: DynamicValue {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        case .boolean(let b): .boolean(b)
        case .color(let c): .color(c)
        case .enumValue(let e): .enumValue(e)
        }
    }
}
