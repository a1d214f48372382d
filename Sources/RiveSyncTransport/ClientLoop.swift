import CWebSockets

/// Service-thread side of a `WebSocketClient`.
///
/// Same thread rule as `ServerLoop` (why `@unchecked Sendable` is sound): built on the caller's
/// thread, then every `var` and C allocation is touched only on the service thread; other
/// threads use `inbox` and `metrics`.
final class ClientLoop: @unchecked Sendable {
    /// Everything needed to open one connection.
    struct ConnectRequest: Sendable {
        let id: UInt64
        let url: WebSocketURL
        let subprotocol: String?
        let headers: [(name: String, value: String)]
        let origin: String?
        let tls: WebSocketClient.TLSOptions
        let onEvent: @Sendable (ClientEvent) -> Void
    }

    /// Commands from the public API.
    enum Input: Sendable {
        case connect(ConnectRequest)
        case send(UInt64, Payload)
        case close(UInt64, code: UInt16, reason: String)
        case shutdown
        /// Dial a `wss://` session again (`redialsAfterContextCreation`).
        case redial(UInt64)
    }

    /// How often one connection is dialled again after its TLS handshake failed while a
    /// context was created in the process (`ContextCreations`).
    static let redialLimit = 3

    let configuration: WebSocketClient.Configuration
    let inbox: Inbox<Input>
    let metrics: TransportMetrics
    /// The counters written on every message (a client has one stripe).
    let stripe: TransportStripe

    var context: OpaquePointer?
    var sessions: [UInt64: ClientSession] = [:]
    var stopping = false
    var exitRequested = false
    static let protocolName = "rivesync-client"
    private let allocations: LoopAllocations

    init(configuration: WebSocketClient.Configuration, inbox: Inbox<Input>, metrics: TransportMetrics) {
        self.configuration = configuration
        self.inbox = inbox
        self.metrics = metrics
        stripe = metrics.stripes[0]
        allocations = LoopAllocations(
            protocolName: ClientLoop.protocolName, callback: clientCallback, rxBufferSize: 64 * 1024, txPacketSize: 64 * 1024,
            pingIntervalSeconds: configuration.pingIntervalSeconds,
            idleTimeoutSeconds: configuration.idleTimeoutSeconds)
    }

    /// The service thread's body.
    func run(reportingTo started: Latch<Result<Int, TransportError>>) {
        var info = lws_context_creation_info()
        info.port = rs_port_no_listen()
        info.protocols = UnsafePointer(allocations.protocols)
        info.uid = -1
        info.gid = -1
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.options = rs_opt_ssl_global_init() | rs_opt_validate_utf8() | rs_opt_raw_origin()
        guard let context = ContextCreations.create(&info) else {
            started.fulfil(.failure(TransportError(.contextCreationFailed, "lws_create_context failed (client)")))
            return
        }
        self.context = context
        allocations.shutdownTimer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        inbox.open(context: context)
        started.fulfil(.success(0))
        allocations.serve(context, inbox: inbox) { exitRequested }
        self.context = nil
        for session in sessions.values {
            finish(session, with: session.isOpen ? .closed(code: nil, reason: "client shut down") : .failed("client shut down"))
        }
        sessions = [:]
    }

    /// Applies pending commands in order.
    func applyInbox() {
        for input in inbox.drain() {
            switch input {
            case .connect(let request):
                connect(request)
            case .send(let id, let payload):
                guard let session = sessions[id], session.pendingClose == nil else {
                    metrics.messagesDropped.wrappingAdd(1, ordering: .relaxed)
                    continue
                }
                let wasEmpty = session.queue.isEmpty
                session.queue.append(payload)
                stripe.queuedBytes.wrappingAdd(payload.count, ordering: .relaxed)
                stripe.queuedMessages.wrappingAdd(1, ordering: .relaxed)
                if wasEmpty, session.isOpen, let wsi = session.wsi { lws_callback_on_writable(wsi) }
            case .close(let id, let code, let reason):
                guard let session = sessions[id], session.pendingClose == nil else { continue }
                session.pendingClose = (code, reason)
                if session.isOpen, let wsi = session.wsi { lws_callback_on_writable(wsi) }
            case .shutdown:
                beginShutdown()
            case .redial(let id):
                guard let session = sessions[id] else { continue }
                if stopping {
                    finish(session, with: .failed("client is shutting down"))
                } else {
                    dial(session)
                }
            }
        }
    }

    private func connect(_ request: ConnectRequest) {
        guard !stopping else {
            request.onEvent(.failed("client is shutting down"))
            return
        }
        let session = ClientSession(request: request, maxMessageBytes: configuration.maxMessageBytes)
        sessions[request.id] = session
        dial(session)
    }

    /// Has lws open the session's connection.
    private func dial(_ session: ClientSession) {
        let request = session.request
        session.contextsAtDial = ContextCreations.mark()
        let strings = CStringArena()
        var info = lws_client_connect_info()
        info.context = context
        info.address = UnsafePointer(strings.dup(request.url.host))
        info.port = Int32(request.url.port)
        info.path = UnsafePointer(strings.dup(request.url.path))
        info.host = info.address
        info.origin = request.origin.map { UnsafePointer(strings.dup($0)) }
        info.protocol = request.subprotocol.map { UnsafePointer(strings.dup($0)) }
        info.local_protocol_name = UnsafePointer(strings.dup(ClientLoop.protocolName))
        info.ietf_version_or_minus_one = -1
        info.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(request.id))
        if configuration.pingIntervalSeconds > 0 { info.retry_and_idle_policy = UnsafePointer(allocations.retryPolicy) }
        if request.url.isSecure {
            var flags = Int32(LCCSCF_USE_SSL.rawValue)
            if request.tls.allowSelfSigned { flags |= Int32(LCCSCF_ALLOW_SELFSIGNED.rawValue) }
            if request.tls.skipHostnameCheck { flags |= Int32(LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK.rawValue) }
            info.ssl_connection = flags
        }
        session.wsi = withExtendedLifetime(strings) { lws_client_connect_via_info(&info) }
        if session.wsi == nil, let failed = sessions[request.id] {
            finish(failed, with: .failed("lws_client_connect_via_info failed for \(request.url.host):\(request.url.port)"))
        }
    }

    /// Whether a connection that failed before opening goes again (and is dialled again, once
    /// the failed one is gone): a `wss://` one whose handshake may have met a context creation
    /// (`ContextCreations`), not closed meanwhile, at most `redialLimit` times.
    func redialsAfterContextCreation(_ session: ClientSession) -> Bool {
        guard session.request.url.isSecure, !session.isOpen, session.pendingClose == nil, !stopping,
            session.redials < Self.redialLimit, ContextCreations.changed(since: session.contextsAtDial)
        else { return false }
        session.redials += 1
        if let wsi = session.wsi { lws_set_opaque_user_data(wsi, nil) }
        session.wsi = nil
        return inbox.submit(CollectionOfOne(.redial(session.request.id)))
    }

    private func beginShutdown() {
        guard !stopping else { return }
        stopping = true
        for session in sessions.values where session.pendingClose == nil {
            session.pendingClose = (1001, "client shutting down")
            if session.isOpen, let wsi = session.wsi { lws_callback_on_writable(wsi) }
        }
        if sessions.isEmpty {
            exitRequested = true
            return
        }
        rs_timer_schedule(
            context, allocations.shutdownTimer,
            { sul in
                let loop = Unmanaged<ClientLoop>.fromOpaque(rs_timer_owner(sul)!).takeUnretainedValue()
                loop.exitRequested = true
            }, lws_usec_t(configuration.shutdownGraceMilliseconds) * 1000)
    }

    /// Delivers the terminal event and forgets the session.
    func finish(_ session: ClientSession, with event: ClientEvent) {
        stripe.queuedBytes.wrappingAdd(-session.queue.bytes, ordering: .relaxed)
        stripe.queuedMessages.wrappingAdd(-session.queue.count, ordering: .relaxed)
        session.queue = SendQueue()
        session.lastWritten = nil
        sessions[session.request.id] = nil
        if session.isOpen { metrics.connectionsCurrent.wrappingAdd(-1, ordering: .relaxed) }
        session.request.onEvent(event)
        if stopping && sessions.isEmpty { exitRequested = true }
    }
}
