import RiveSyncModel

/// What decoding a batch or a whole-target snapshot needs to type its values: the schema of
/// the target's file and, for a `set` effect, the view model of an instance the receiver's
/// replica already holds.
public protocol ServerMessageTypes {
    /// The schema of `target`'s file, or nil when the receiver does not follow the target.
    func schema(ofTarget target: String) -> FileSchema?
    /// The view model of `instance` as the receiver's replica of `target` knows it.
    func viewModel(of instance: InstanceID, inTarget target: String) -> String?
}

/// For receivers that follow no target: a batch or whole-target snapshot is
/// `ServerMessageDecodingError.untypedTarget`.
public struct NoTargetTypes: ServerMessageTypes {
    public init() {}
    public func schema(ofTarget target: String) -> FileSchema? { nil }
    public func viewModel(of instance: InstanceID, inTarget target: String) -> String? { nil }
}
