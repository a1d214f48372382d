internal import RiveSyncModel

/// Binds a shared instance in the daemon (a state machine's main instance, a published
/// instance) to a local Rive view model instance, so what the local Rive view shows is the
/// shared state and what happens in it is shared.
///
/// - Values (string, number, boolean, color, enum): a remote batch becomes a local setter;
///   with `forwardsLocalChanges`, a change on the local instance (its value stream: the app,
///   the state machine, a script) becomes a remote write.
/// - Triggers: a remote fire fires locally; with `forwardsLocalChanges`, a local fire is
///   fired remotely.
/// - One authority: when the daemon runs the target's state machine (a `.riv` state machine
///   graph, PROTOCOL.md §19), the daemon's state machine decides and the local view renders
///   what it decided. The local Rive state machine runs the same file and makes the same
///   listener, bind and converter writes itself; sending them would make one authored change
///   one write per app and make two-way values fight. So by default the bridge then sends
///   nothing back (write through RiveSync instead), and a fire the daemon's state machine
///   made is not fired locally, where the local state machine makes it. For a published
///   instance or a file with no state machine graph (a JSON schema) nothing else runs the
///   file's logic, and local changes are sent by default.
/// - Nested instances and lists follow the daemon: a remote replacement or list edit is
///   made locally, with local instances (from `makeInstance`) for instances new to this app,
///   each bridged in turn. Rive reports no local list or nested changes, so structure is
///   edited through RiveSync (`ViewModelInstance` or `RemoteTarget`) and reaches every app.
/// - Images, fonts, blobs and artboards are not bridged (Rive makes them write-only).
///
/// No echo loops: the bridge remembers the value it last gave each local property and sends
/// a local change only when the local value (read back in call order) differs from it; while
/// its own write is in flight it holds remote values back and settles on the daemon's value
/// once the write is acknowledged. At binding the daemon's values win.
///
/// Everything runs on the main actor, as Rive's API does; `state` and `states()` let a
/// SwiftUI view follow the binding.
@MainActor
public final class RiveSyncBridge<Local: LocalViewModelInstance> {
    /// Where the binding is in its life.
    public enum State: Sendable, Equatable {
        case bound
        /// `unbind()` was called.
        case unbound
        /// The binding stopped: the target was deleted, the connection closed, a stream failed.
        case failed(String)
    }

    public private(set) var state = State.bound {
        didSet {
            for (id, listener) in stateListeners {
                if case .terminated = listener.yield(state) { stateListeners[id] = nil }
            }
        }
    }
    /// Writes and fires the bridge sent to the daemon (for tests and diagnostics).
    public private(set) var remoteWrites = 0
    /// Setters, fires and edits the bridge made on local instances.
    public private(set) var localWrites = 0

    let target: RemoteTarget
    /// Whether local changes and fires are sent to the daemon (see the type's notes).
    public let forwardsLocalChanges: Bool
    let makeInstance: @MainActor (_ viewModel: String) async throws -> Local
    let rootID: UInt64
    var mirrors: [UInt64: Mirror] = [:]
    private var stateListeners: [Int: AsyncStream<State>.Continuation] = [:]
    private var nextListener = 0

    /// Binds `remote` to `local`: the daemon's values are set locally, then both follow each
    /// other until `unbind()`.
    /// - Parameters:
    ///   - makeInstance: makes a local instance of a view model (Rive:
    ///     `file.createViewModelInstance(.blank(from: .name(viewModel)))`), for instances that
    ///     reach the bridged one later (list items, replacements).
    ///   - forwardingLocalChanges: whether local changes and fires go to the daemon; nil (the
    ///     default) sends them unless the daemon runs the target's state machine.
    public static func bind(
        _ remote: ViewModelInstance, to local: Local, forwardingLocalChanges: Bool? = nil,
        makeInstance: @escaping @MainActor (_ viewModel: String) async throws -> Local
    ) async throws -> RiveSyncBridge {
        let name = try await remote.anchor()
        let target = RemoteTarget(worker: remote.worker, name: name)
        let forwards: Bool
        if let forwardingLocalChanges {
            forwards = forwardingLocalChanges
        } else {
            let info = try await remote.worker.getTargets().first { $0.name == name }
            forwards = !(info?.kind == .stateMachine && info?.layers.isEmpty == false)
        }
        let bridge = RiveSyncBridge(
            target: target, rootID: try await remote.instanceID, forwardsLocalChanges: forwards, makeInstance: makeInstance)
        try await bridge.mirror(bridge.rootID, local)
        return bridge
    }

    private init(
        target: RemoteTarget, rootID: UInt64, forwardsLocalChanges: Bool, makeInstance: @escaping @MainActor (String) async throws -> Local
    ) {
        self.target = target
        self.rootID = rootID
        self.forwardsLocalChanges = forwardsLocalChanges
        self.makeInstance = makeInstance
    }

    /// Stops following both sides; the local instances keep their values.
    public func unbind() {
        stop(.unbound)
    }

    /// `state` now and at each change.
    public func states() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        continuation.yield(state)
        stateListeners[nextListener] = continuation
        nextListener += 1
        return stream
    }

    /// The local instance bridged to the daemon's instance `id`, if it is bridged.
    public func localInstance(for id: UInt64) -> Local? { mirrors[id]?.local }

    func stop(_ end: State) {
        guard state == .bound else { return }
        for mirror in mirrors.values { mirror.stop() }
        mirrors = [:]
        state = end
        for listener in stateListeners.values { listener.finish() }
    }

    /// Runs `body` for as long as the binding lasts; its failure ends the binding.
    func follow(_ mirror: Mirror, _ body: @escaping @MainActor () async throws -> Void) {
        mirror.tasks.append(
            Task { [weak self] in
                do {
                    try await body()
                } catch is CancellationError {
                } catch {
                    guard !Task.isCancelled else { return }
                    self?.stop(.failed("\(error)"))
                }
            })
    }

    /// Starts bridging the daemon's instance `id` with `local` (once per instance).
    func mirror(_ id: UInt64, _ local: Local) async throws {
        guard mirrors[id] == nil, state == .bound else { return }
        let mirror = Mirror(id: id, local: local)
        mirrors[id] = mirror
        for property in try await properties(of: id) {
            switch property.type {
            case .string: bridgeValue(mirror, property.name, .string)
            case .number: bridgeValue(mirror, property.name, .number)
            case .boolean: bridgeValue(mirror, property.name, .boolean)
            case .color: bridgeValue(mirror, property.name, .color)
            case .enum: bridgeValue(mirror, property.name, .enumValue)
            case .trigger: bridgeTrigger(mirror, property.name)
            case .viewModel: bridgeNested(mirror, property.name)
            case .list: bridgeList(mirror, property.name)
            default: break
            }
        }
    }

    /// The local instance for the daemon's `id`: the bridged one, or a new one, bridged.
    func localInstance(forRemote id: UInt64) async throws -> Local {
        if let mirror = mirrors[id] { return mirror.local }
        let local = try await makeInstance(try await viewModel(of: id))
        try await mirror(id, local)
        return local
    }

    /// Stops bridging the instances no longer reachable from the bound one.
    func collect() {
        var reachable: Set<UInt64> = [rootID]
        var queue = [rootID]
        while let next = queue.popLast() {
            let children = mirrors[next].map { Array($0.children.values.joined()) } ?? []
            for child in children where reachable.insert(child).inserted { queue.append(child) }
        }
        for (id, mirror) in mirrors where !reachable.contains(id) {
            mirror.stop()
            mirrors[id] = nil
        }
    }

    private func replicaState(of id: UInt64) async throws -> (state: InstanceState, schema: FileSchema) {
        let mirror = try await target.worker.session.ensureSubscribed(target.name)
        guard let state = mirror.replica?.store[InstanceID(id)] else { throw ViewModelInstanceError.unknownInstance(id) }
        return (state, mirror.schema)
    }

    private func viewModel(of id: UInt64) async throws -> String { try await replicaState(of: id).state.viewModel }

    private func properties(of id: UInt64) async throws -> [PropertySchema] {
        let (state, schema) = try await replicaState(of: id)
        do {
            return try schema.properties(of: state.viewModel)
        } catch {
            throw FileError(error)
        }
    }

    func countRemoteWrite() { remoteWrites += 1 }
    func countLocalWrite() { localWrites += 1 }
}

extension RiveSyncBridge {
    /// One bridged pair: the daemon's instance and the local one, with what the bridge follows.
    final class Mirror {
        let id: UInt64
        let local: Local
        var tasks: [Task<Void, Never>] = []
        /// The daemon's instances each nested or list property holds now.
        var children: [String: [UInt64]] = [:]

        init(id: UInt64, local: Local) {
            self.id = id
            self.local = local
        }

        func path(_ property: String) -> String { "#\(id)/" + PropertyPath.escape(property) }

        func stop() {
            for task in tasks { task.cancel() }
            tasks = []
        }
    }
}
