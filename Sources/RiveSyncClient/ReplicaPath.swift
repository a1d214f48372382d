internal import RiveSyncModel

/// What a path leads to in a replica: the instance holding the property, its descriptor and value.
typealias ResolvedValue = ResolvedProperty

/// Resolves paths in a replica with the daemon's rules (PROTOCOL.md §1), so a bad path fails
/// locally with the same error the daemon would give.
enum ReplicaPath {
    /// Resolves `path` from `root` (an instance), or, with no root, from the target's slots
    /// (`mood`, `@Theme/background`, `#17/x`).
    static func resolve(
        _ path: String, from root: InstanceID?, in replica: Replica, schema: FileSchema
    ) throws(PropertyError) -> ResolvedValue {
        try replica.resolve(path, schema: schema, from: root)
    }
}

extension ViewModelInstanceError {
    /// The public form of a path or value error found locally.
    init(_ error: PropertyError) {
        switch error {
        case .invalidPath(let path): self = .invalidPath(path)
        case .noSuchSlot(let path), .noSuchProperty(let path): self = .noSuchProperty(path: path)
        case .typeMismatch(_, let expected, let actual): self = .valueMismatch(expected, actual)
        case .invalidEnumValue(let path, let value, let allowed): self = .invalidEnumValue(path: path, value: value, allowed: allowed)
        case .incompatibleInstance(let path, let expected, let actual):
            self = .incompatibleInstance(path: path, expected: expected, actual: actual)
        case .indexOutOfRange(let path, let index, let count): self = .indexOutOfRange(path: path, index: index, count: count)
        case .nullInstance(let path): self = .nullInstance(path: path)
        case .instanceNotInList(let path, let instance): self = .instanceNotInList(path: path, instance: instance.rawValue)
        case .unknownInstance(let id): self = .unknownInstance(id.rawValue)
        case .invalidValue(let path, let reason): self = .invalidValue(path: path, reason: reason)
        case .limitExceeded(let limit, let value): self = .message("limit \(limit) (\(value)) exceeded")
        }
    }
}
