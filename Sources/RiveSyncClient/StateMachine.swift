internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

/// A state machine in the daemon (a target): bind instances to it, advance it, and — unlike
/// Rive — get its bound instances back.
public final class StateMachine: Sendable {
    public let worker: Worker
    /// The target name other clients find it by.
    public let name: String
    /// The file it belongs to.
    public let fileName: String

    init(worker: Worker, name: String, file: String) {
        self.worker = worker
        self.name = name
        fileName = file
    }

    /// Binds the main instance and/or global instances, as Rive's
    /// `bindViewModelInstances(main:globals:)`: every name is checked before anything is
    /// applied; omitted slots and a nil `main` keep their instances. Returns after the advance
    /// that applied the binding.
    /// - Throws: `StateMachineError.duplicateGlobalViewModelInstance`,
    ///   `.invalidGlobalViewModelName`, `.incompatibleInstance`, `.unknownInstance`.
    @discardableResult
    public func bindViewModelInstances(
        main: ViewModelInstance? = nil,
        @GlobalViewModelInstanceBindingsBuilder globals: @Sendable () -> [(String, ViewModelInstance)] = { [] }
    ) async throws -> Receipt {
        let pairs = globals()
        return try Receipt(try await worker.calls.run { [self] in try await submitBind(main: main, globals: pairs) })
    }

    /// Binds the main instance, as Rive's deprecated `bindViewModelInstance(_:)`: returns at
    /// once; a failure goes to `Worker.errors()`.
    @available(*, deprecated, message: "Use bindViewModelInstances(main:globals:)")
    public func bindViewModelInstance(_ viewModelInstance: ViewModelInstance) {
        worker.calls.post("bindViewModelInstance(_:)") { [self] in try await submitBind(main: viewModelInstance, globals: []) }
    }

    private func submitBind(main: ViewModelInstance?, globals pairs: [(String, ViewModelInstance)]) async throws -> Reply {
        let mainID = try await main?.resolvedID()
        var bindings: [GlobalBinding] = []
        for (slot, instance) in pairs { bindings.append(GlobalBinding(name: slot, instance: try await instance.resolvedID())) }
        let (target, globals) = (name, bindings)
        return try await worker.session.submit(.bind(target: target, main: mainID, globals: globals), .stateMachine, commandTo: target) {
            session in
            if let mainID { session.adopt(mainID, anchor: target) }
            for global in globals { session.adopt(global.instance, anchor: target) }
        }
    }

    /// Advances a manual state machine now, as Rive's `advance(by:)`: applies its queued
    /// changes, then runs the daemon's state machine for `elapsed` seconds (0 to 60;
    /// PROTOCOL.md §8, §19). Commands sent to a manual target are acknowledged only by an
    /// advance, so await a setter concurrently (`async let`) with this call.
    /// - Returns: the seq after the advance and whether the state machine is settled.
    /// - Throws: `StateMachineError.notManual` for a state machine that advances by itself.
    @discardableResult
    public func advance(elapsed: Double = 0) async throws -> AdvanceReceipt {
        let reply = try await worker.calls.run { [self] in try await submitAdvance(elapsed) }
        guard case .advanced(let target, let seq, let settled, _) = reply else {
            throw reply?.unexpected(.advanced) ?? WorkerError.protocolViolation("advance got no 'advanced'")
        }
        return AdvanceReceipt(target: target, seq: seq, settled: settled)
    }

    /// Advances a manual state machine by `time` seconds, as Rive's `advance(by:)`: returns at
    /// once, after the calls queued before it; the daemon runs its state machine for `time`.
    /// A state machine that advances by itself reports `notManual` to `Worker.errors()`; use
    /// `advance(elapsed:)` to await the advance and learn whether it settled.
    public func advance(by time: Double) {
        worker.calls.post("advance(by: \(time))") { [self] in try await submitAdvance(time) }
    }

    private func submitAdvance(_ elapsed: Double) async throws -> Reply {
        try await worker.session.submit(.advance(target: name, elapsed: elapsed), .stateMachine)
    }

    /// Every layer of the state machine in its current state, as the daemon lists it now
    /// (empty for a state machine with no graph, as a JSON schema's).
    public func layers() async throws -> [StateMachineLayer] {
        try await info().layers
    }

    /// Whether the state machine needs no further advance, as the daemon lists it now.
    public func isSettled() async throws -> Bool {
        try await info().settled ?? true
    }

    private func info() async throws -> TargetInfo {
        guard let info = try await worker.getTargets().first(where: { $0.name == name }) else {
            throw StateMachineError.unknownTarget(name)
        }
        return info
    }

    /// The instance bound in the main slot (better than Rive, which cannot give it back).
    public func mainInstance() async throws -> ViewModelInstance {
        try await RemoteTarget(worker: worker, name: name).boundInstance()
    }

    /// The instance bound in a global slot (`"Theme"`).
    public func globalInstance(named global: String) async throws -> ViewModelInstance {
        try await RemoteTarget(worker: worker, name: name).boundInstance(slot: global)
    }
}

/// The daemon's acknowledgement of a command: the batch that applied it.
public struct Receipt: Sendable, Hashable {
    public let target: String
    /// The seq of the batch that holds the command's effects.
    public let seq: UInt64
    /// The daemon's number for the command (listed in the batch's `commands`).
    public let command: UInt64
}
