internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

/// Path-based access to a target (a state machine or a published instance), for tools that
/// learn property types at run time, such as the `rivesync` CLI. Paths are relative to the
/// target: `mood`, `@Theme/background`, `players/0/x`, `#<id>/x`.
public final class RemoteTarget: Sendable {
    public let worker: Worker
    public let name: String

    init(worker: Worker, name: String) {
        self.worker = worker
        self.name = name
    }

    private var session: Session { worker.session }

    /// The target as `Worker.getTargets()` lists it now.
    public func info() async throws -> TargetInfo {
        guard let info = try await worker.getTargets().first(where: { $0.name == name }) else {
            throw StateMachineError.unknownTarget(name)
        }
        return info
    }

    /// The name of the target's file.
    public func fileName() async throws -> String { try await session.file(ofTarget: name) }

    /// The property's type and value at `path`, as of the last batch this client applied.
    public func value(at path: String) async throws -> (type: ViewModelProperty.DataType, value: DynamicValue) {
        let resolved = try await session.read(name, root: nil, path: path)
        return (.init(wireName: resolved.property.type.rawValue), DynamicValue(resolved.value))
    }

    /// The whole state as of the last batch this client applied, as JSON text in the shape of
    /// a whole-target snapshot (PROTOCOL.md §7): `target`, `epoch`, `seq`, `bindings` and every
    /// instance reachable from them, in id order.
    public func state() async throws -> String {
        let mirror = try await session.ensureSubscribed(name)
        guard let replica = mirror.replica else { throw WorkerError.disconnected }
        let reachable = replica.store.closure(of: replica.bindings.compactMap(\.instance)).sorted()
        return JSONValue.object([
            ("target", .string(name)), ("epoch", .string(mirror.epoch)), ("seq", .number(Double(replica.seq))),
            ("bindings", .array(replica.bindings.map(StateCodec.encode))),
            ("instances", .array(reachable.compactMap { replica.store[$0].map(StateCodec.encode) })),
        ]).jsonText
    }

    /// The seq of the last batch this client applied for the target.
    public func seq() async throws -> UInt64 { try await session.seq(of: name) }

    /// Returns once this client has applied the target's batch `seq` (for example the seq of
    /// another client's `Receipt`), so reads see that batch.
    public func waitForSeq(_ seq: UInt64) async throws { try await session.waitForSeq(name, seq) }

    /// Sets several values as one transaction (PROTOCOL.md §16): in one advance, in their
    /// order, all or none; returns once the daemon applied them.
    /// - Throws: `TransactionFailure` with the index of the pair that failed.
    @discardableResult
    public func setValues(_ values: [(path: String, value: DynamicValue)]) async throws -> TransactionReceipt {
        let commands = values.map { ClientRequest.set(target: name, path: ParsedPath($0.path), value: $0.value.json) }
        return try TransactionReceipt(
            try await session.request(.transaction(TransactionRequest(target: name, commands: commands)), .instance))
    }

    /// Sets a value; returns once the daemon applied it.
    @discardableResult
    public func setValue(at path: String, to value: DynamicValue) async throws -> Receipt {
        try await command(.set(target: name, path: ParsedPath(path), value: value.json))
    }

    @discardableResult
    public func fire(at path: String) async throws -> Receipt {
        try await command(.fire(target: name, path: ParsedPath(path)))
    }

    @discardableResult
    public func appendInstance(_ instance: UInt64, to path: String) async throws -> Receipt {
        try await command(.listAppend(target: name, path: ParsedPath(path), instance: InstanceID(instance)))
    }

    @discardableResult
    public func insertInstance(_ instance: UInt64, to path: String, at index: Int) async throws -> Receipt {
        try await command(.listInsert(target: name, path: ParsedPath(path), index: index, instance: InstanceID(instance)))
    }

    @discardableResult
    public func removeInstance(at index: Int, from path: String) async throws -> Receipt {
        try await command(.listRemoveAt(target: name, path: ParsedPath(path), index: index))
    }

    @discardableResult
    public func removeInstance(_ instance: UInt64, from path: String) async throws -> Receipt {
        try await command(.listRemove(target: name, path: ParsedPath(path), instance: InstanceID(instance)))
    }

    @discardableResult
    public func swapInstance(atIndex index: Int, withIndex other: Int, in path: String) async throws -> Receipt {
        try await command(.listSwap(target: name, path: ParsedPath(path), index: index, with: other))
    }

    /// Binds instances by id: `main`, and global slots by name (see
    /// `StateMachine.bindViewModelInstances`).
    @discardableResult
    public func bind(main: UInt64?, globals: [(String, UInt64)]) async throws -> Receipt {
        let reply = try await session.request(
            .bind(
                target: name, main: main.map { InstanceID($0) },
                globals: globals.map { GlobalBinding(name: $0.0, instance: InstanceID($0.1)) }),
            .stateMachine)
        return try Receipt(reply)
    }

    /// The values at `path`, each time a batch changes it (a trigger's value is its fire
    /// count). Throws at once for a path that does not resolve.
    public func valueStream(at path: String, includingCurrent: Bool = false) -> AsyncThrowingStream<DynamicValue, any Error> {
        ValueStreams.make(session: session, target: name, root: nil, path: path, type: nil, includingCurrent: includingCurrent) { value in
            DynamicValue(value)
        }
    }

    /// Every batch of the target from now on, in seq order with no gaps (a resync after a
    /// long disconnection is marked `isResync`). With `includingCurrent`, the first element is
    /// the starting point: `isResync` with the seq the later batches follow.
    public func batches(includingCurrent: Bool = false) -> AsyncThrowingStream<Batch, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Batch.self)
        let session = session
        let target = name
        let registration = ListenerRegistration(session: session)
        let registering = Task {
            do {
                let id = try await session.addBatchListener(target, includingCurrent: includingCurrent, continuation)
                await registration.registered(id, on: target)
            } catch {
                registration.failed()
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in
            registering.cancel()
            registration.ended()
        }
        return stream
    }

    /// The instance in a slot (`main` or a global's name), addressed through this target.
    func boundInstance(slot: String = "main") async throws -> ViewModelInstance {
        let mirror = try await session.ensureSubscribed(name)
        let bindingSlot: BindingSlot = slot == "main" ? .main : .global(slot)
        guard let id = mirror.replica?.instance(in: bindingSlot), let state = mirror.replica?.store[id] else {
            throw ViewModelInstanceError.nullInstance(path: slot == "main" ? "" : "@" + slot)
        }
        await session.adopt(id, anchor: name)
        return ViewModelInstance(worker: worker, file: mirror.file, id: id, viewModelName: state.viewModel, name: state.name)
    }

    private func command(_ body: ClientRequest) async throws -> Receipt {
        try Receipt(try await session.request(body, .instance))
    }
}
