extension FileRuntime {
    /// Checks an operation against the current state and turns it into the changes it makes
    /// (none for a write of the value already there, as Rive ignores those). `resolved`:
    /// where the command's path led when it was checked, used instead of resolving the path
    /// again while the state has not changed since.
    @discardableResult
    func plan(_ command: Command, in target: Target, resolved earlier: ResolvedProperty? = nil) throws(PropertyError) -> [Change] {
        switch command {
        case .set(let path, let value):
            var found: ResolvedProperty?
            return try planSet(value, at: path, in: target, resolved: earlier, found: &found).map { [$0] } ?? []
        case .fire(let path):
            let (resolved, _) = try resolve(path, in: target, reusing: earlier)
            try expect(.trigger, resolved, path)
            return [.fire(instance: resolved.instance, property: resolved.property.name)]
        case .listAppend(let path, let item):
            let (resolved, items) = try list(path, in: target, reusing: earlier)
            return [try insertion(of: item, at: items.count, into: resolved, count: items.count, path: path)]
        case .listInsert(let path, let index, let item):
            let (resolved, items) = try list(path, in: target, reusing: earlier)
            guard index >= 0, index <= items.count else {
                throw .indexOutOfRange(path: path, index: index, count: items.count)
            }
            return [try insertion(of: item, at: index, into: resolved, count: items.count, path: path)]
        case .listRemoveAt(let path, let index):
            let (resolved, items) = try list(path, in: target, reusing: earlier)
            guard items.indices.contains(index) else { throw .indexOutOfRange(path: path, index: index, count: items.count) }
            return [.listRemove(instance: resolved.instance, property: resolved.property.name, index: index)]
        case .listRemove(let path, let item):
            let (resolved, items) = try list(path, in: target, reusing: earlier)
            let positions = items.indices.filter { items[$0] == item }
            guard !positions.isEmpty else { throw .instanceNotInList(path: path, instance: item) }
            return positions.reversed().map {
                .listRemove(instance: resolved.instance, property: resolved.property.name, index: $0)
            }
        case .listSwap(let path, let a, let b):
            let (resolved, items) = try list(path, in: target, reusing: earlier)
            for index in [a, b] where !items.indices.contains(index) {
                throw .indexOutOfRange(path: path, index: index, count: items.count)
            }
            guard a != b else { return [] }
            return [.listSwap(instance: resolved.instance, property: resolved.property.name, index: a, with: b)]
        case .bind(let bindings):
            var changes: [Change] = []
            for binding in bindings {
                guard let instance = binding.instance, target.instance(in: binding.slot) != instance else { continue }
                // Checked when queued; an instance freed since (with another target) is gone.
                guard store[instance] != nil else { throw .unknownInstance(instance) }
                changes.append(.bind(slot: binding.slot, instance: instance, introduced: closureStates(of: instance)))
            }
            return changes
        case .setInput, .fireInput, .setBindTarget:
            // No view-model change: the state machine takes it (`applyInput`).
            return []
        }
    }

    /// `plan` of a `set` of `value` at `path`: its change, or nil for a write of the value
    /// already there. `found`: the path's resolution (the change applies where it found the
    /// value, `apply(_:on:path:undo:found:)`).
    func planSet(
        _ value: PropertyValue, at path: String, in target: Target, resolved earlier: ResolvedProperty?, found: inout ResolvedProperty?
    ) throws(PropertyError) -> Change? {
        let (resolved, current) = try resolve(path, in: target, reusing: earlier)
        try check(value, for: resolved, path: path)
        guard current != value else { return nil }
        found = resolved
        return .set(instance: resolved.instance, property: resolved.property.name, value: value, introduced: introduced(by: value))
    }

    private func expect(_ type: DataType, _ resolved: ResolvedProperty, _ path: String) throws(PropertyError) {
        guard resolved.property.type == type else {
            throw .typeMismatch(path: path, expected: type.rawValue, actual: resolved.property.type.rawValue)
        }
    }

    private func list(
        _ path: String, in target: Target, reusing earlier: ResolvedProperty?
    ) throws(PropertyError) -> (ResolvedProperty, [InstanceID]) {
        let (resolved, value) = try resolve(path, in: target, reusing: earlier)
        guard case .list(let items) = value else {
            throw .typeMismatch(path: path, expected: DataType.list.rawValue, actual: resolved.property.type.rawValue)
        }
        return (resolved, items)
    }

    private func insertion(
        of item: InstanceID, at index: Int, into resolved: ResolvedProperty, count: Int, path: String
    ) throws(PropertyError) -> Change {
        guard count < limits.maxListLength else { throw .limitExceeded(limit: "maxListLength", value: limits.maxListLength) }
        try checkAttachable(item, under: resolved.instance, path: path)
        return .listInsert(
            instance: resolved.instance, property: resolved.property.name, index: index, item: item,
            introduced: closureStates(of: item))
    }

    /// An instance may be attached anywhere except inside its own subtree (no cycles).
    private func checkAttachable(_ item: InstanceID, under parent: InstanceID, path: String) throws(PropertyError) {
        guard store[item] != nil else { throw .unknownInstance(item) }
        if store.closure(of: [item]).contains(parent) {
            throw .invalidValue(path: path, reason: "instance \(item) contains this property's instance (a cycle)")
        }
    }

    /// Checks a `set` of `value` at `path`, resolved already in the current state (what
    /// `validate` does for it, without resolving the path again).
    public func validateSet(_ value: PropertyValue, at resolved: ResolvedProperty, path: String) throws(PropertyError) {
        try check(value, for: resolved, path: path)
    }

    private func check(_ value: PropertyValue, for resolved: ResolvedProperty, path: String) throws(PropertyError) {
        let property = resolved.property
        guard property.type.isSettableScalar || property.type == .viewModel, value.fits(property.type) else {
            throw .typeMismatch(path: path, expected: property.type.rawValue, actual: value.kindName)
        }
        switch value {
        case .number(let n) where !n.isFinite:
            throw .invalidValue(path: path, reason: "numbers must be finite")
        case .string(let s) where s.utf8.count > limits.maxStringBytes:
            throw .limitExceeded(limit: "maxStringBytes", value: limits.maxStringBytes)
        case .enumValue(let name):
            let allowed = property.enumName.flatMap { schema.enumSchema(named: $0) }?.values ?? []
            guard allowed.contains(name) else { throw .invalidEnumValue(path: path, value: name, allowed: allowed) }
        case .artboard(let name?) where !schema.artboards.contains(where: { $0.name == name }):
            throw .invalidValue(path: path, reason: "no artboard named '\(name)'")
        case .viewModel(nil):
            throw .invalidValue(path: path, reason: "a nested view model can only be replaced by an instance")
        case .viewModel(let id?):
            guard let state = store[id] else { throw .unknownInstance(id) }
            guard state.viewModel == property.viewModelName else {
                throw .incompatibleInstance(path: path, expected: property.viewModelName ?? "", actual: state.viewModel)
            }
            try checkAttachable(id, under: resolved.instance, path: path)
        default:
            break
        }
    }

    private func introduced(by value: PropertyValue) -> [InstanceState] {
        guard case .viewModel(let id?) = value else { return [] }
        return closureStates(of: id)
    }

    func closureStates(of id: InstanceID) -> [InstanceState] {
        store.closure(of: [id]).compactMap { store[$0] }
    }
}
