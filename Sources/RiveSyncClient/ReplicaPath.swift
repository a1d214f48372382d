import RiveSyncModel

/// What a path leads to in a replica: the instance holding the property, its descriptor and value.
struct ResolvedValue: Sendable {
    var instance: InstanceID
    var property: PropertySchema
    var value: RiveSyncModel.PropertyValue
}

/// Resolves paths in a replica with the daemon's rules (PROTOCOL.md §1), so a bad path fails
/// locally with the same error the daemon would give.
enum ReplicaPath {
    /// Resolves `path` from `root` (an instance), or, with no root, from the target's slots
    /// (`mood`, `@Theme/background`, `#17/x`).
    static func resolve(
        _ path: String, from root: InstanceID?, in replica: Replica, schema: FileSchema
    ) throws(PropertyError) -> ResolvedValue {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !path.isEmpty, !segments.contains(where: \.isEmpty) else { throw .invalidPath(path) }
        var current: InstanceID
        var walked: [String] = []
        if let root {
            current = root
        } else if segments[0].hasPrefix("@") {
            guard let id = replica.instance(in: .global(String(segments[0].dropFirst()))) else { throw .noSuchSlot(path: segments[0]) }
            current = id
            walked.append(segments.removeFirst())
        } else if segments[0].hasPrefix("#"), let raw = UInt64(segments[0].dropFirst()) {
            current = InstanceID(raw)
            walked.append(segments.removeFirst())
        } else {
            guard let id = replica.instance(in: .main) else { throw .nullInstance(path: "") }
            current = id
        }
        guard !segments.isEmpty else { throw .invalidPath(path) }
        var index = 0
        while true {
            walked.append(segments[index])
            let here = walked.joined(separator: "/")
            guard let state = replica.store[current] else { throw .unknownInstance(current) }
            guard let viewModel = schema.viewModels.first(where: { $0.name == state.viewModel }),
                let property = viewModel.property(named: segments[index]), let value = state.values[property.name]
            else { throw .noSuchProperty(path: here) }
            index += 1
            if index == segments.count { return ResolvedValue(instance: current, property: property, value: value) }
            switch value {
            case .viewModel(let nested):
                guard let nested else { throw .nullInstance(path: here) }
                current = nested
            case .list(let items):
                guard let itemIndex = Int(segments[index]) else {
                    throw .typeMismatch(path: here + "/" + segments[index], expected: "list index", actual: segments[index])
                }
                guard items.indices.contains(itemIndex) else { throw .indexOutOfRange(path: here, index: itemIndex, count: items.count) }
                walked.append(segments[index])
                current = items[itemIndex]
                index += 1
                guard index < segments.count else { throw .invalidPath(path) }
            default:
                throw .typeMismatch(path: here, expected: "viewModel", actual: property.type.rawValue)
            }
        }
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
