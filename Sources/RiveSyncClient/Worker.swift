import Foundation
internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol
import RiveSyncWebSocket

/// A connection to a `rivesyncd` daemon, in the role of Rive's `Worker`: files, instances and
/// state machines made through it live in the daemon and are shared with every other client.
///
/// A worker reconnects by itself when the connection drops and resumes each subscription from
/// its last batch, so streams go on without losing or repeating a change. All connections of
/// a process share one WebSocket client context.
public final class Worker: Sendable {
    /// The default daemon address, `ws://127.0.0.1:7420`.
    public static let defaultURL = "ws://127.0.0.1:7420"

    let session: Session
    /// The command queue of the calls that return at once (and of their `confirmed` forms).
    let calls = CallQueue()

    /// Connects to the daemon at `url` and says hello.
    ///
    /// - Parameters:
    ///   - url: `ws://` or `wss://` address of the daemon.
    ///   - token: access token, if the daemon needs one.
    ///   - clientName: free text for the daemon's logs.
    ///   - reconnect: reconnect and resume after a dropped connection (default true); when
    ///     false, a drop ends every stream with `WorkerError.disconnected`. A close that
    ///     reconnecting cannot mend (1008, a revoked token) ends them with the close's error.
    ///   - transport: the WebSocket library (`Worker.defaultTransport` when nil).
    /// - Throws: `WorkerError` when the daemon cannot be reached or refuses the client.
    public init(
        url: String = Worker.defaultURL, token: String? = nil, clientName: String = "RiveSyncClient", reconnect: Bool = true,
        transport: (any WebSocketTransport)? = nil
    ) async throws {
        session = Session(
            settings: .init(
                url: url, token: token, clientName: clientName, reconnect: reconnect, transport: transport ?? Worker.defaultTransport))
        try await session.start()
    }

    /// Closes the connection when the last reference goes away.
    deinit {
        let session = session
        calls.finish()
        session.freshness.finish()
        session.presence.finish()
        Task { await session.close() }
    }

    /// The failures of calls that returned at once (`setValue`, `fire`, list edits, the nested
    /// `value(of:)`, `advance(by:)`): what Rive only logs. Every open stream gets each failure;
    /// while none is open they are written to standard error.
    public func errors() -> AsyncStream<QueuedCallError> {
        calls.errors.stream()
    }

    /// False while the daemon says its state may be behind: a cluster node that cannot read
    /// the cluster's log keeps answering from the state it last applied (PROTOCOL.md §7.1).
    /// True again once it has caught up, and after each reconnect until a node says otherwise.
    public var isStateFresh: Bool { session.freshness.isFresh }

    /// `isStateFresh` now, then each change of it, until the worker closes.
    public func freshness() -> AsyncStream<Bool> {
        session.freshness.stream()
    }

    /// Same as `init(url:token:)`.
    public static func connect(url: String = Worker.defaultURL, token: String? = nil) async throws -> Worker {
        try await Worker(url: url, token: token)
    }

    /// Closes the connection. Pending calls throw and streams end with `WorkerError.closed`.
    /// The targets only this worker knows are deleted first: state machines created without a
    /// `targetName`, and the private anchors of instances no target reached (the daemon frees
    /// the instances only they held; anything bound or listed elsewhere stays).
    public func close() async {
        await session.close()
        calls.errors.finish()
        session.freshness.finish()
        session.presence.finish()
    }

    /// Names of the files loaded in the daemon.
    public func getFileNames() async throws -> [String] {
        let reply = try await session.request(.listFiles, .file)
        guard case .files(let files, _) = reply else { throw reply.unexpected(.files) }
        return files.map(\.name)
    }

    /// Every state machine and published instance in the daemon (all `listTargets` pages, in
    /// name order).
    public func getTargets() async throws -> [TargetInfo] {
        try await session.targetList().map(TargetInfo.init)
    }

    /// Returns once every target this worker follows has applied each batch the daemon had
    /// made when the call began. A write's acknowledgement guarantees only that its own
    /// target's batch was applied; call this before reading other targets the write reached
    /// (a shared instance's other state machines), or to see other clients' latest writes.
    public func synchronize() async throws {
        for target in try await getTargets() where await session.mirrors[target.name] != nil {
            try await session.waitForSeq(target.name, target.seq)
        }
    }

    /// A state machine that exists in the daemon (made by its configuration or another
    /// client): this is how apps share one state machine.
    public func stateMachine(named name: String) async throws -> StateMachine {
        let file = try await session.file(ofTarget: name)
        return StateMachine(worker: self, name: name, file: file)
    }

    /// The instance published under `name` (e.g. a shared `theme`).
    public func publishedInstance(named name: String) async throws -> ViewModelInstance {
        try await RemoteTarget(worker: self, name: name).boundInstance()
    }

    /// Deletes a state machine or published instance. Its instances are freed unless another
    /// target or a live instance still holds them; streams on it end with
    /// `StateMachineError.targetDeleted` in every client, and so do writes still queued on it.
    /// Returns the ids of the freed instances.
    @discardableResult
    public func deleteTarget(named name: String) async throws -> [UInt64] {
        let reply = try await session.request(.deleteTarget(target: name), .stateMachine)
        guard case .targetDeleted(_, let freed, _) = reply else { throw reply.unexpected(.targetDeleted) }
        return freed.map(\.rawValue)
    }

    /// Path-based access to any target, for tools that learn types at run time.
    public func target(named name: String) async throws -> RemoteTarget {
        _ = try await session.file(ofTarget: name)
        return RemoteTarget(worker: self, name: name)
    }

    /// Uploads image bytes (PNG, JPEG or WebP) for `ImageProperty`.
    public func decodeImage(from data: Data) async throws -> Image {
        Image(reference: try await upload("image", data))
    }

    /// Uploads font bytes (TTF, OTF, WOFF, WOFF2) for `FontProperty`.
    public func decodeFont(from data: Data) async throws -> Font {
        Font(reference: try await upload("font", data))
    }

    /// Uploads any bytes for `BlobProperty`.
    public func decodeBlob(from data: Data) async throws -> Blob {
        Blob(reference: try await upload("blob", data))
    }

    private func upload(_ kind: String, _ data: Data) async throws -> AssetReference {
        let reply = try await session.request(.upload(kind: kind, data: [UInt8](data), mediaType: nil), .file)
        guard case .asset(let reference, _) = reply else { throw reply.unexpected(.asset) }
        return AssetReference(id: reference.id, byteCount: reference.byteCount, mediaType: reference.mediaType)
    }

    /// Test hook: drops the connection as a network failure would.
    func dropConnection(holdingReconnect: Bool = false) async {
        await session.dropConnection(holdingReconnect: holdingReconnect)
    }

    /// Test hook: lets a held reconnect go on.
    func releaseReconnect() async {
        await session.releaseReconnect()
    }
}

/// A target as `Worker.getTargets()` lists it.
public struct TargetInfo: Sendable, Hashable {
    /// A state machine, or an instance shared under a name.
    public enum Kind: String, Sendable, Hashable {
        case stateMachine, instance
    }

    public let name: String
    public let file: String
    public let kind: Kind
    public let artboard: String?
    public let stateMachine: String?
    /// `auto` or `manual`.
    public let mode: String
    public let seq: UInt64
    /// Slot name (`main`, `Theme`) and the bound instance's id (nil while empty).
    public let bindings: [(slot: String, instance: UInt64?)]
    /// A state machine's layers, each in its current state (empty for a published instance
    /// and for a state machine with no graph, as one a JSON schema only names).
    public let layers: [StateMachineLayer]
    /// Whether a state machine needs no further advance (nil for a published instance).
    public let settled: Bool?
    /// A state machine's legacy inputs with their values, in file order (empty for a
    /// published instance).
    public let inputs: [StateMachineInput]

    init(_ info: ServerMessage.TargetInfo) {
        name = info.name
        file = info.file
        switch info.kind {
        case .stateMachine(let artboard, let stateMachine):
            kind = .stateMachine
            self.artboard = artboard
            self.stateMachine = stateMachine
        case .instance:
            kind = .instance
            artboard = nil
            stateMachine = nil
        }
        mode = info.mode.rawValue
        seq = info.seq
        bindings = info.bindings.map { ($0.slot.description, $0.instance?.rawValue) }
        layers = (info.layers ?? []).map(StateMachineLayer.init)
        settled = info.settled
        inputs = (info.inputs ?? []).map(StateMachineInput.init)
    }

    public static func == (lhs: TargetInfo, rhs: TargetInfo) -> Bool {
        lhs.name == rhs.name && lhs.file == rhs.file && lhs.kind == rhs.kind && lhs.artboard == rhs.artboard
            && lhs.stateMachine == rhs.stateMachine && lhs.mode == rhs.mode && lhs.seq == rhs.seq
            && lhs.bindings.elementsEqual(rhs.bindings) { $0.slot == $1.slot && $0.instance == $1.instance }
            && lhs.layers == rhs.layers && lhs.settled == rhs.settled && lhs.inputs == rhs.inputs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(seq)
    }
}
