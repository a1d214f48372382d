import RiveSyncModel
import RiveSyncProtocol

/// Nested instances and lists. These read from the replica, so unlike Rive they are `async`
/// and fail with a clear error for a bad path, a null nested instance or an index out of range.
extension ViewModelInstance {
    /// The nested instance at the property.
    /// - Throws: `ViewModelInstanceError.nullInstance` when it is null.
    public func value(of property: ViewModelInstanceProperty) async throws -> ViewModelInstance {
        guard case .viewModel(let nested) = try await read(property.path, .viewModel) else { throw ViewModelInstanceError.missingData }
        guard let nested else { throw ViewModelInstanceError.nullInstance(path: property.path) }
        return try await related(nested)
    }

    /// Replaces the nested instance (it must be of the property's view model).
    @discardableResult
    public func setValue(of property: ViewModelInstanceProperty, to instance: ViewModelInstance) async throws -> Receipt {
        let receipt = try await set(property.path, .viewModel, ["instance": .number(Double(instance.id.rawValue))])
        await session.adopt(instance.id, anchor: try await anchor())
        return receipt
    }

    /// The number of items in the list.
    public func size(of property: ListProperty) async throws -> Int {
        try await items(property).count
    }

    /// The item at `index`.
    /// - Throws: `ViewModelInstanceError.indexOutOfRange`.
    public func value(of property: ListProperty, at index: Int32) async throws -> ViewModelInstance {
        let items = try await items(property)
        guard items.indices.contains(Int(index)) else {
            throw ViewModelInstanceError.indexOutOfRange(path: property.path, index: Int(index), count: items.count)
        }
        return try await related(items[Int(index)])
    }

    @discardableResult
    public func appendInstance(_ instance: ViewModelInstance, to list: ListProperty) async throws -> Receipt {
        let receipt = try await command(list.path, .list) { .listAppend(target: $0, path: $1, instance: instance.id) }
        await session.adopt(instance.id, anchor: try await anchor())
        return receipt
    }

    @discardableResult
    public func insertInstance(_ instance: ViewModelInstance, to list: ListProperty, at index: Int32) async throws -> Receipt {
        let receipt = try await command(list.path, .list) { .listInsert(target: $0, path: $1, index: Int(index), instance: instance.id) }
        await session.adopt(instance.id, anchor: try await anchor())
        return receipt
    }

    @discardableResult
    public func removeInstance(at index: Int32, from list: ListProperty) async throws -> Receipt {
        try await command(list.path, .list) { .listRemoveAt(target: $0, path: $1, index: Int(index)) }
    }

    /// Removes every occurrence of the instance from the list.
    @discardableResult
    public func removeInstance(_ instance: ViewModelInstance, from list: ListProperty) async throws -> Receipt {
        try await command(list.path, .list) { .listRemove(target: $0, path: $1, instance: instance.id) }
    }

    @discardableResult
    public func swapInstance(atIndex index: Int32, withIndex other: Int32, in list: ListProperty) async throws -> Receipt {
        try await command(list.path, .list) { .listSwap(target: $0, path: $1, index: Int(index), with: Int(other)) }
    }

    private func items(_ property: ListProperty) async throws -> [InstanceID] {
        guard case .list(let items) = try await read(property.path, .list) else { throw ViewModelInstanceError.missingData }
        return items
    }
}
