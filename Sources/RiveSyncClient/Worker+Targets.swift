internal import RiveSyncModel
internal import RiveSyncProtocol

extension Worker {
    /// Creates a state machine target named `name` with instances given by id, for tools that
    /// learn names at run time (PROTOCOL.md §6 `createStateMachine`; apps use
    /// `Artboard.createStateMachine`). Slots not given get the authored defaults, or stay empty
    /// with `bindDefaults` false (bind them later); nothing is created when it throws.
    /// - Throws: `ArtboardError`, `StateMachineError` (a taken name, bad globals, incompatible
    ///   instances), `FileError.missingFile`.
    public func createStateMachine(
        named name: String, file: String, artboard: String? = nil, stateMachine: String? = nil, main: UInt64? = nil,
        globals: [(String, UInt64)] = [], manual: Bool = false, bindDefaults: Bool = true
    ) async throws {
        let request = StateMachineRequest(
            file: file, name: name, artboard: artboard, stateMachine: stateMachine, main: main.map { InstanceID($0) },
            globals: globals.map { GlobalBinding(name: $0.0, instance: InstanceID($0.1)) }, manual: manual,
            bindDefaults: bindDefaults)
        let reply = try await session.request(.createStateMachine(request), .stateMachine)
        guard case .target = reply else { throw reply.unexpected(.target) }
        await session.remember(target: name, file: file, manual: manual)
    }

    /// Shares the instance with this id as a target named `name` (PROTOCOL.md §6 `publish`);
    /// other clients find it with `publishedInstance(named:)`.
    /// - Throws: `StateMachineError` (a taken name), an unknown instance's error.
    public func publish(instance id: UInt64, as name: String) async throws {
        let reply = try await session.request(.publish(instance: InstanceID(id), name: name), .stateMachine)
        guard case .target(let info, _) = reply else { throw reply.unexpected(.target) }
        await session.remember(target: name, file: info.file)
    }
}
