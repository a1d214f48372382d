internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol
import RiveSyncWebSocket

/// The state behind one `Worker`: the connection, requests waiting for replies, one mirror per
/// subscribed target, and the reconnect loop. All of it lives on this actor; messages are
/// handled here in arrival order, so a subscribe's snapshot is installed before any batch
/// after it is applied.
actor Session {
    /// Where and how to connect.
    struct Settings: Sendable {
        var url: String
        var token: String?
        var clientName: String
        var reconnect: Bool
        var transport: any WebSocketTransport
    }

    /// Where the connection is in its life.
    enum Phase {
        /// Opening the first connection.
        case connecting
        /// Connected and greeted.
        case ready
        /// The connection dropped; the reconnect loop runs.
        case reconnecting
        /// Closed by `close()` or, without reconnect, by the peer.
        case closed
    }

    /// Who waits for the reply to a request id.
    enum Pending {
        case request(CheckedContinuation<ServerMessage, any Error>)
        /// A (re)subscribe the session sent itself; the reply is installed in the mirror.
        case subscription(target: String)
        /// A request whose reply is awaited later (`submit`): failures become the public
        /// errors of `domain`; `onSuccess` runs here before the reply is handed over.
        case reply(Reply, ServerFailure.Domain, pathPrefix: String, onSuccess: (@Sendable (isolated Session) -> Void)?)
    }

    let settings: Settings
    /// Distinguishes this client's generated target names from other clients'.
    let clientTag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    var phase = Phase.connecting
    var link: (any WebSocketConnection)?
    var generation = 0
    var nextRequestID = 1
    var pending: [Int: Pending] = [:]
    var epoch = ""
    /// The daemon's `maxMessageBytes` (from `welcome`): a bigger `.riv` file is sent in parts.
    var maxMessageBytes = 1 << 20
    var openWaiter: CheckedContinuation<Void, any Error>?
    var readyWaiters: [CheckedContinuation<Void, any Error>] = []
    var mirrors: [String: TargetMirror] = [:]
    var schemas: [String: FileSchema] = [:]
    var targetFiles: [String: String] = [:]
    /// The targets known to advance only on `advance()` (their commands are acknowledged then).
    var manualTargets: Set<String> = []
    /// The target through which each instance handle is addressed (`#id/path`).
    var anchors: [InstanceID: String] = [:]
    var nextListenerID = 1
    /// Test hook: while set, the reconnect loop waits before connecting again.
    var reconnectHeld = false
    var holdWaiter: CheckedContinuation<Void, Never>?
    /// Streams whose listener is being registered (for tests: wait for none before counting).
    nonisolated let registrationsInFlight = Locked(0)
    /// Whether the daemon's state may be behind (`freshness`).
    nonisolated let freshness = FreshnessChannel()
    /// Every target's presence as this client sees it, and the presences it joined.
    nonisolated let presence = PresenceChannels()

    init(settings: Settings) {
        self.settings = settings
    }

    /// Opens the first connection and says hello; throws if either fails (no retries).
    func start() async throws {
        do {
            try await openLink()
            phase = .ready
        } catch {
            phase = .closed
            link?.close(code: CloseCode.normal.rawValue, reason: "")
            throw error
        }
    }

    /// Opens a connection and greets the daemon; sets `epoch`.
    func openLink() async throws {
        generation += 1
        let current = generation
        let connection: any WebSocketConnection
        let events: AsyncStream<WebSocketEvent>
        do {
            (connection, events) = try settings.transport.connect(to: settings.url, subprotocol: "rivesync.v1")
        } catch {
            throw WorkerError.connectionFailed("\(settings.url): \(error)")
        }
        link = connection
        Task { [weak self] in
            for await event in events { await self?.receive(event, generation: current) }
        }
        try await withCheckedThrowingContinuation { openWaiter = $0 }
        let reply: ServerMessage
        do {
            reply = try await send(.hello(protocols: [1], token: settings.token, client: settings.clientName))
        } catch let failure as ServerFailure {
            throw failure.typed(.file)
        }
        guard case .welcome(let welcome, _) = reply else { throw reply.unexpected(.welcome) }
        epoch = welcome.epoch
        if let limit = welcome.limits.first(where: { $0.name == "maxMessageBytes" }) { maxMessageBytes = limit.value }
        freshness.update(true)
    }

    /// Sends a request once connected and returns its reply; an `error` reply throws a
    /// `ServerFailure`, a dropped connection `WorkerError.disconnected`.
    func request(_ body: ClientRequest) async throws -> ServerMessage {
        try await waitUntilReady()
        return try await send(body)
    }

    /// Like `request`, with failures turned into the public errors of `domain`.
    func request(_ body: ClientRequest, _ domain: ServerFailure.Domain, pathPrefix: String = "") async throws -> ServerMessage {
        do {
            return try await request(body)
        } catch let failure as ServerFailure {
            throw failure.typed(domain, pathPrefix: pathPrefix)
        }
    }

    /// Sends a request once connected and returns without waiting for the reply. A command to
    /// a manual state machine (`awaitsAdvance`) is marked so on the reply.
    func submit(
        _ body: ClientRequest, _ domain: ServerFailure.Domain, pathPrefix: String = "", commandTo target: String? = nil,
        onSuccess: (@Sendable (isolated Session) -> Void)? = nil
    ) async throws -> Reply {
        try await waitUntilReady()
        guard let link else { throw WorkerError.disconnected }
        let id = nextRequestID
        nextRequestID += 1
        let reply = Reply(awaitsAdvance: target.map(manualTargets.contains) ?? false)
        pending[id] = .reply(reply, domain, pathPrefix: pathPrefix, onSuccess: onSuccess)
        link.send(text: Request(id: .number(Double(id)), body: body).jsonValue.jsonText)
        return reply
    }

    func send(_ body: ClientRequest) async throws -> ServerMessage {
        guard let link else { throw WorkerError.disconnected }
        let id = nextRequestID
        nextRequestID += 1
        let text = Request(id: .number(Double(id)), body: body).jsonValue.jsonText
        return try await withCheckedThrowingContinuation { continuation in
            pending[id] = .request(continuation)
            link.send(text: text)
        }
    }

    /// Sends a subscribe whose reply `handle` installs in the target's mirror.
    func sendSubscribe(_ target: String, cursor: Cursor?) {
        guard let link else { return }
        let id = nextRequestID
        nextRequestID += 1
        pending[id] = .subscription(target: target)
        link.send(text: Request(id: .number(Double(id)), body: .subscribe(target: target, paths: nil, cursor: cursor)).jsonValue.jsonText)
    }

    func waitUntilReady() async throws {
        switch phase {
        case .ready: return
        case .closed: throw WorkerError.closed
        case .connecting, .reconnecting: try await withCheckedThrowingContinuation { readyWaiters.append($0) }
        }
    }

    /// Closes the connection for good: requests, waits and streams end with `WorkerError.closed`.
    func close() {
        guard phase != .closed else { return }
        phase = .closed
        if let link {
            for name in privateTargets { link.send(text: Request(id: nil, body: .deleteTarget(target: name)).jsonValue.jsonText) }
        }
        link?.close(code: CloseCode.normal.rawValue, reason: "client closed")
        link = nil
        failEverything(WorkerError.closed)
    }

    /// The targets this session made under its own prefix (`~<clientTag>.`): state machines
    /// created without a target name and anchors of instances no target reached. Nobody else
    /// knows their names, so `close` deletes them (the daemon frees what only they held).
    var privateTargets: [String] {
        targetFiles.keys.filter { $0.hasPrefix("~\(clientTag).") }.sorted()
    }

    func failEverything(_ error: any Error) {
        for entry in pending.values { entry.fail(error) }
        pending = [:]
        for waiter in readyWaiters { waiter.resume(throwing: error) }
        readyWaiters = []
        for name in mirrors.keys { mirrors[name]!.fail(error) }
        mirrors = [:]
        holdWaiter?.resume()
        holdWaiter = nil
    }
}

extension Session.Pending {
    /// Ends a request that will get no reply.
    func fail(_ error: any Error) {
        switch self {
        case .request(let continuation): continuation.resume(throwing: error)
        case .reply(let reply, _, _, _): reply.complete(.failure(error))
        case .subscription: break
        }
    }
}
