import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

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
        @GlobalViewModelInstanceBindingsBuilder globals: () -> [(String, ViewModelInstance)] = { [] }
    ) async throws -> Receipt {
        let pairs = globals()
        let reply = try await worker.session.request(
            .bind(target: name, main: main?.id, globals: pairs.map { GlobalBinding(name: $0.0, instance: $0.1.id) }), .stateMachine)
        if let main { await worker.session.adopt(main.id, anchor: name) }
        for (_, instance) in pairs { await worker.session.adopt(instance.id, anchor: name) }
        return Receipt(reply)
    }

    /// Advances a manual state machine now: applies its queued changes. Commands sent to a
    /// manual target are acknowledged only by an advance, so await a setter concurrently
    /// (`async let`) with this call.
    /// - Returns: the seq after the advance.
    /// - Throws: `StateMachineError.notManual` for a state machine that advances by itself.
    @discardableResult
    public func advance() async throws -> UInt64 {
        UInt64(try await worker.session.request(.advance(target: name), .stateMachine)["seq"]?.intValue ?? 0)
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

    init(_ json: JSONValue) {
        target = json["target"]?.stringValue ?? ""
        seq = UInt64(json["seq"]?.intValue ?? 0)
        command = UInt64(json["command"]?.intValue ?? 0)
    }
}
