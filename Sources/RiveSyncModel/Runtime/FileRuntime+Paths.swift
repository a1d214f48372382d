/// What a path leads to: an instance's property and its current value.
struct ResolvedProperty {
    var instance: InstanceID
    var property: PropertySchema
    var value: PropertyValue
}

extension FileRuntime {
    /// Resolves a `/`-separated, case-sensitive path in a target.
    ///
    /// The first segment may pick the starting instance: `@Name` for the global slot `Name`,
    /// `#17` for the instance with id 17; otherwise the path starts at the main slot. Each
    /// further segment names a property; after a nested view model the path goes on inside it,
    /// and after a list an integer segment picks an item. The path must end at a property.
    func resolve(_ path: String, in target: Target) throws(PropertyError) -> ResolvedProperty {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !path.isEmpty, !segments.contains(where: \.isEmpty) else { throw .invalidPath(path) }
        guard segments.count <= limits.maxPathSegments else {
            throw .limitExceeded(limit: "maxPathSegments", value: limits.maxPathSegments)
        }
        var index = 0
        var current: InstanceID
        if segments[0].hasPrefix("@") {
            guard let id = target.instance(in: .global(String(segments[0].dropFirst()))) else {
                throw .noSuchSlot(path: segments[0])
            }
            current = id
            index = 1
        } else if segments[0].hasPrefix("#"), let raw = UInt64(segments[0].dropFirst()) {
            guard store[InstanceID(raw)] != nil else { throw .unknownInstance(InstanceID(raw)) }
            current = InstanceID(raw)
            index = 1
        } else {
            guard let id = target.instance(in: .main) else { throw .nullInstance(path: "") }
            current = id
        }
        guard index < segments.count else { throw .invalidPath(path) }
        while true {
            let here = segments[...index].joined(separator: "/")
            guard let state = store[current] else { throw .unknownInstance(current) }
            guard let viewModel = schema.viewModels.first(where: { $0.name == state.viewModel }),
                let property = viewModel.property(named: segments[index]),
                let value = state.values[property.name]
            else { throw .noSuchProperty(path: here) }
            index += 1
            if index == segments.count {
                return ResolvedProperty(instance: current, property: property, value: value)
            }
            switch value {
            case .viewModel(let nested):
                guard let nested else { throw .nullInstance(path: here) }
                current = nested
            case .list(let items):
                guard let itemIndex = Int(segments[index]) else {
                    throw .typeMismatch(path: here + "/" + segments[index], expected: "list index", actual: segments[index])
                }
                guard items.indices.contains(itemIndex) else {
                    throw .indexOutOfRange(path: here, index: itemIndex, count: items.count)
                }
                current = items[itemIndex]
                index += 1
                guard index < segments.count else { throw .invalidPath(path) }
            default:
                throw .typeMismatch(path: here, expected: "viewModel", actual: property.type.rawValue)
            }
        }
    }

    /// Paths in `target` at which a property of `instance` is visible.
    func paths(of instance: InstanceID, property: String, in target: Target) -> [String] {
        store.paths(to: instance, roots: target.roots).map { $0.isEmpty ? property : $0 + "/" + property }
    }
}
