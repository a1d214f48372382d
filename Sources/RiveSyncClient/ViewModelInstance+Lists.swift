internal import RiveSyncModel
internal import RiveSyncProtocol

/// Nested instances and lists, with Rive's shapes: the nested `value(of:)` and `value(of:at:)`
/// return a handle at once, which the queue resolves in call order (a bad path, a null nested
/// instance or an index out of range then fails every call on it, and is reported to
/// `Worker.errors()`); edits return at once. `size(of:)` is `async throws`. `confirmed` has
/// the awaited forms, which throw instead.
extension ViewModelInstance {
    /// The nested instance at the property (as of the calls queued before this one).
    public func value(of property: ViewModelInstanceProperty) -> ViewModelInstance {
        resolving("value(of: \(property))") { [self] in try await nested(property) }
    }

    /// Replaces the nested instance (it must be of the property's view model).
    public func setValue(of property: ViewModelInstanceProperty, to instance: ViewModelInstance) {
        post("setValue(of: \(property), to: ViewModelInstance)") { [self] in try await submitNested(property, instance) }
    }

    /// The number of items in the list.
    public func size(of property: ListProperty) async throws -> Int {
        await calls.barrier()
        return try await items(property).count
    }

    /// The item at `index` (as of the calls queued before this one).
    public func value(of property: ListProperty, at index: Int32) -> ViewModelInstance {
        resolving("value(of: \(property), at: \(index))") { [self] in try await item(property, at: index) }
    }

    public func appendInstance(_ instance: ViewModelInstance, to list: ListProperty) {
        post("appendInstance(_:to: \(list))") { [self] in try await submitAppend(instance, to: list) }
    }

    public func insertInstance(_ instance: ViewModelInstance, to list: ListProperty, at index: Int32) {
        post("insertInstance(_:to: \(list), at: \(index))") { [self] in try await submitInsert(instance, to: list, at: index) }
    }

    public func removeInstance(at index: Int32, from list: ListProperty) {
        post("removeInstance(at: \(index), from: \(list))") { [self] in try await submitRemove(at: index, from: list) }
    }

    /// Removes every occurrence of the instance from the list.
    public func removeInstance(_ instance: ViewModelInstance, from list: ListProperty) {
        post("removeInstance(_:from: \(list))") { [self] in try await submitRemove(instance, from: list) }
    }

    public func swapInstance(atIndex index: Int32, withIndex other: Int32, in list: ListProperty) {
        post("swapInstance(atIndex: \(index), withIndex: \(other), in: \(list))") { [self] in try await submitSwap(index, other, in: list) }
    }

    // MARK: The work behind both forms

    /// A handle the queue resolves with `find`, in call order.
    private func resolving(
        _ call: @autoclosure @escaping @Sendable () -> String, _ find: @escaping @Sendable () async throws -> ViewModelInstance
    )
        -> ViewModelInstance
    {
        let identity = InstanceIdentity()
        post(call()) { [calls] in
            do {
                await calls.barrier(before: CallQueue.currentTicket)
                let found = try await find()
                identity.settle(.success(try await found.identity.resolved()))
            } catch {
                identity.settle(.failure(error))
                throw error
            }
            return nil
        }
        return ViewModelInstance(worker: worker, file: fileName, resolving: identity)
    }

    func nested(_ property: ViewModelInstanceProperty) async throws -> ViewModelInstance {
        guard case .viewModel(let nested) = try await read(property.path, .viewModel) else { throw ViewModelInstanceError.missingData }
        guard let nested else { throw ViewModelInstanceError.nullInstance(path: property.path) }
        return try await related(nested)
    }

    func item(_ property: ListProperty, at index: Int32) async throws -> ViewModelInstance {
        let items = try await items(property)
        guard items.indices.contains(Int(index)) else {
            throw ViewModelInstanceError.indexOutOfRange(path: property.path, index: Int(index), count: items.count)
        }
        return try await related(items[Int(index)])
    }

    /// Waits until the calls queued before this one applied: the daemon checks a list edit or
    /// a replacement against the state when it arrives, not after the commands queued before it
    /// (README, daemon issues), so edits that depend on each other are not sent together.
    private func settleEarlierCalls() async {
        await calls.barrier(before: CallQueue.currentTicket)
    }

    /// After a successful placement, the instance is addressed through this one's target.
    private func adopting(_ instance: InstanceID) async throws -> @Sendable (isolated Session) -> Void {
        let target = try await anchor()
        return { session in session.adopt(instance, anchor: target) }
    }

    func submitNested(_ property: ViewModelInstanceProperty, _ instance: ViewModelInstance) async throws -> Reply {
        await settleEarlierCalls()
        let id = try await instance.resolvedID()
        return try await submit(property.path, .viewModel, onSuccess: try await adopting(id)) {
            .set(target: $0, path: ParsedPath($1), value: ["instance": .number(Double(id.rawValue))])
        }
    }

    func submitAppend(_ instance: ViewModelInstance, to list: ListProperty) async throws -> Reply {
        await settleEarlierCalls()
        let id = try await instance.resolvedID()
        return try await submit(list.path, .list, onSuccess: try await adopting(id)) {
            .listAppend(target: $0, path: ParsedPath($1), instance: id)
        }
    }

    func submitInsert(_ instance: ViewModelInstance, to list: ListProperty, at index: Int32) async throws -> Reply {
        await settleEarlierCalls()
        let id = try await instance.resolvedID()
        return try await submit(list.path, .list, onSuccess: try await adopting(id)) {
            .listInsert(target: $0, path: ParsedPath($1), index: Int(index), instance: id)
        }
    }

    func submitRemove(at index: Int32, from list: ListProperty) async throws -> Reply {
        await settleEarlierCalls()
        return try await submit(list.path, .list) { .listRemoveAt(target: $0, path: ParsedPath($1), index: Int(index)) }
    }

    func submitRemove(_ instance: ViewModelInstance, from list: ListProperty) async throws -> Reply {
        await settleEarlierCalls()
        let id = try await instance.resolvedID()
        return try await submit(list.path, .list) { .listRemove(target: $0, path: ParsedPath($1), instance: id) }
    }

    func submitSwap(_ index: Int32, _ other: Int32, in list: ListProperty) async throws -> Reply {
        await settleEarlierCalls()
        return try await submit(list.path, .list) { .listSwap(target: $0, path: ParsedPath($1), index: Int(index), with: Int(other)) }
    }

    private func items(_ property: ListProperty) async throws -> [InstanceID] {
        guard case .list(let items) = try await read(property.path, .list) else { throw ViewModelInstanceError.missingData }
        return items
    }
}
