internal import RiveSyncModel
internal import RiveSyncProtocol

/// An artboard of a file: where state machines come from.
public final class Artboard: Sendable {
    public let file: File
    public let name: String

    init(file: File, name: String) {
        self.file = file
        self.name = name
    }

    /// Names of the artboard's state machines.
    public func getStateMachineNames() async throws -> [String] {
        let reply = try await file.worker.session.request(.stateMachineNames(file: file.name, artboard: name), .artboard)
        guard case .names(let names, _) = reply else { throw reply.unexpected(.names) }
        return names
    }

    /// Creates a state machine in the daemon and binds instances to it, as Rive's
    /// `createStateMachine(_:binding:globals:)`: slots not given get the authored defaults.
    ///
    /// - Parameters:
    ///   - name: the state machine; nil is the artboard's default.
    ///   - main: the instance for the main slot.
    ///   - targetName: the name other clients find it by (`Worker.stateMachine(named:)`); nil
    ///     makes a name private to this client.
    ///   - manual: advance only on `StateMachine.advance()` instead of by itself.
    ///   - bindDefaults: false leaves the slots not given empty (Rive lets a state machine
    ///     advance before an instance is bound); bind them later with `bindViewModelInstances`.
    ///   - globals: `("Theme", instance)` pairs for the global view model slots.
    /// - Throws: `ArtboardError.invalidStateMachine`, `StateMachineError` (duplicate or
    ///   invalid global names, incompatible instances, a taken target name). Nothing is
    ///   created when it throws.
    public func createStateMachine(
        _ name: String? = nil, binding main: ViewModelInstance? = nil, targetName: String? = nil, manual: Bool = false,
        bindDefaults: Bool = true,
        @GlobalViewModelInstanceBindingsBuilder globals: @Sendable () -> [(String, ViewModelInstance)] = { [] }
    ) async throws -> StateMachine {
        let session = file.worker.session
        let pairs = globals()
        let machine: String
        if let name { machine = name } else { machine = try await defaultStateMachineName() }
        let target = targetName ?? "~\(session.clientTag).\(self.name).\(machine).\(UInt32.random(in: 0...UInt32.max))"
        let mainID = try await main?.resolvedID()
        var globalBindings: [GlobalBinding] = []
        for (slot, instance) in pairs { globalBindings.append(GlobalBinding(name: slot, instance: try await instance.resolvedID())) }
        let request = StateMachineRequest(
            file: file.name, name: target, artboard: self.name, stateMachine: machine, main: mainID, globals: globalBindings,
            manual: manual,
            bindDefaults: bindDefaults
        )
        await file.worker.calls.barrier()
        _ = try await session.request(.createStateMachine(request), .stateMachine)
        await session.remember(target: target, file: file.name, manual: manual)
        if let mainID { await session.adopt(mainID, anchor: target) }
        for binding in globalBindings { await session.adopt(binding.instance, anchor: target) }
        return StateMachine(worker: file.worker, name: target, file: file.name)
    }

    private func defaultStateMachineName() async throws -> String {
        do {
            let schema = try await file.worker.session.schema(of: file.name)
            let artboard = try schema.artboard(named: name)
            guard let machine = artboard.defaultStateMachine ?? artboard.stateMachines.first else {
                throw ArtboardError.invalidStateMachine("artboard '\(name)' has no state machine")
            }
            return machine
        } catch let error as RiveSyncModel.FileError {
            throw FileError(error)
        }
    }
}
