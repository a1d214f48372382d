import CWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// Service-thread side of a `WebSocketServer`: the lws context and all per-session state.
///
/// Thread rule (why `@unchecked Sendable` is sound): the object is built on the caller's thread
/// and then handed to the service thread (`pthread_create` orders the two); from then on every
/// `var` and every C allocation here is touched only on the service thread. Other threads reach
/// it only through `inbox`, `metrics` and `sessionStats`, which are thread-safe. The `var`s
/// touched on every send (`sessions`, `newlyQueued`, `flushStorage`, `recipientStorage`,
/// `drainStorage`) carry no run-time exclusivity check, as `ServerSession`'s.
final class ServerLoop: @unchecked Sendable {
    /// What the inbox carries: public commands plus the internal stop request.
    enum Input: Sendable {
        case command(WebSocketServer.Command)
        case stop(closeCode: UInt16)
        /// Work hosted on this thread (`WebSocketServer.run(onThread:_:)`), run at the end of
        /// the callback that drains it.
        case run(@Sendable () -> Void)
        /// A socket the listening thread admitted and steered here, with its peer's address
        /// (its place in the counts comes with it).
        case adoptAdmitted(Int32, address: String)
    }

    let configuration: WebSocketServer.Configuration
    let handler: any WebSocketServerHandler
    let metrics: TransportMetrics
    /// This thread's part of `metrics`: the counters written on every message.
    let stripe: TransportStripe
    let metricsAccess: @Sendable (_ authorization: String?, _ remoteAddress: String) -> HTTPAccess
    let metricsBody: @Sendable (TransportMetrics) -> String
    let readiness: @Sendable () -> Bool
    let inbox: Inbox<Input>
    let sessionStats: Locked<[SessionID: SessionStats]>

    var context: OpaquePointer?
    @exclusivity(unchecked) var sessions = SessionTable()
    var httpBodies: [OpaquePointer: Payload] = [:]
    /// Bytes an HTTP connection had received when its last request was answered (keep-alive).
    var receivedBeforeRequest: [OpaquePointer: UInt64] = [:]
    /// The configured static files, each body in one payload made once.
    let staticFiles: [String: (contentType: String, headers: [(name: String, value: String)], payload: Payload)]
    var stopping = false
    /// Set once every session is gone (or the grace period ended): the loop ends its run.
    var exitRequested = false {
        didSet { if exitRequested, let eventLoop { rs_ev_break(eventLoop) } }
    }
    /// The context's event loop (libev on epoll), ours to run and to stop; nil before `run`.
    private(set) var eventLoop: UnsafeMutableRawPointer?
    /// This thread's accepted connections (`WSI_CREATE` … `WSI_DESTROY`) → their peer address.
    var connections: [OpaquePointer: String] = [:]
    /// The server's accepted connections, all threads together (admission).
    let connectionCounts: ConnectionCounts
    /// Which of the server's service threads this is, and how many there are: this loop's
    /// session ids are `index + 1`, then every `threads`-th after it.
    let index: Int
    let threads: Int
    /// Whether this loop's context listens: only the first loop of several does.
    let listens: Bool
    /// The first loop of several: hands an accepted socket to another loop and returns true,
    /// or returns false to keep it. With an address, the socket was admitted here and its
    /// place goes with it (steering); without, the other loop admits it (`Command.adopt`).
    /// With a thread, to that one; without, every thread gets one in turn.
    let handOff: (@Sendable (_ socket: Int32, _ admitted: String?, _ thread: Int?) -> Bool)?
    /// The first loop of several, when connections are steered (`ServerLoop+Steering`): the
    /// service thread that serves a request target, or nil (in turn).
    let steering: (@Sendable (_ requestTarget: String) -> Int?)?
    /// Accepted sockets waiting for their request line, by descriptor (steering).
    var pendingSockets: [Int32: PendingSocket] = [:]
    /// Where a pending socket's first bytes are looked at (`maxHeaderBytes`, made at first use).
    var peekBuffer: [UInt8] = []
    /// The peer address of the socket being accepted, between `FILTER_NETWORK_CONNECTION`
    /// (or `Command.adopt`) and the `WSI_CREATE` of its wsi that follows at once.
    var admitting: String?
    /// Most accepted connections at once: `maxConnections`, lowered to fit the file limit.
    var connectionBudget = 0
    /// Sessions whose send queue became non-empty during the current inbox drain, not
    /// retained (each a locked instruction, twice per delivery): `sessions` holds them, and a
    /// session closed while listed (`ServerSession.listedForFlush`) is held by
    /// `closedWhileListed` until the flush is over.
    @exclusivity(unchecked) var newlyQueued: [Unmanaged<ServerSession>] = []
    /// Empty between flushes: the storage `newlyQueued` swaps in when it is flushed, kept from
    /// flush to flush (a list copied out and emptied with `keepingCapacity` allocated a buffer
    /// of the same size on every flush: the copy still held the old one).
    @exclusivity(unchecked) var flushStorage: [Unmanaged<ServerSession>] = []
    /// Sessions closed while `newlyQueued` (or a flush under way) lists them, kept alive until
    /// no flush lists them.
    var closedWhileListed: [ServerSession] = []
    /// Empty between flushes: sessions whose writable handling a flush outside lws runs itself
    /// (`flushNewlyQueued(outsideLws:)`), storage kept from flush to flush.
    @exclusivity(unchecked) var servicedStorage: [ServerSession] = []
    /// Empty between sends: the sessions of a send to several (`deliver(_:toEach:…)`), lent,
    /// storage kept from send to send.
    @exclusivity(unchecked) var recipientStorage: [Unmanaged<ServerSession>] = []
    /// Empty between inbox drains: storage for the next one's commands, kept from drain to drain.
    @exclusivity(unchecked) var drainStorage: [Input] = []
    /// Where coalesced writes are framed (nil when `coalesceBytes` is 0: no coalescing), and
    /// the block that holds its bytes.
    let coalescing: CoalescingBuffer?
    let coalescingBlock: PayloadBlock?
    /// Work hosted on this thread and its timers (`ServerLoop+Hosted`).
    let hosting = LoopHosting()
    private var nextID: SessionID
    private let allocations: LoopAllocations

    init(
        configuration: WebSocketServer.Configuration, handler: any WebSocketServerHandler,
        metrics: TransportMetrics,
        metricsAccess: @escaping @Sendable (_ authorization: String?, _ remoteAddress: String) -> HTTPAccess,
        metricsBody: @escaping @Sendable (TransportMetrics) -> String,
        readiness: @escaping @Sendable () -> Bool,
        inbox: Inbox<Input>, sessionStats: Locked<[SessionID: SessionStats]>,
        thread: (index: Int, of: Int), connectionCounts: ConnectionCounts,
        handOff: (@Sendable (_ socket: Int32, _ admitted: String?, _ thread: Int?) -> Bool)?,
        steering: (@Sendable (_ requestTarget: String) -> Int?)?
    ) {
        index = thread.index
        threads = thread.of
        listens = configuration.listens && thread.index == 0
        self.handOff = handOff
        self.steering = steering
        nextID = SessionID(thread.index + 1)
        self.connectionCounts = connectionCounts
        self.configuration = configuration
        self.handler = handler
        self.metrics = metrics
        stripe = metrics.stripes[thread.index]
        self.metricsAccess = metricsAccess
        self.metricsBody = metricsBody
        self.readiness = readiness
        self.inbox = inbox
        self.sessionStats = sessionStats
        let coalescingMade = configuration.coalesceBytes > 0 ? CoalescingBuffer.make(limit: configuration.coalesceBytes) : nil
        coalescing = coalescingMade?.buffer
        coalescingBlock = coalescingMade?.block
        staticFiles = configuration.staticFiles.mapValues { file in
            (file.contentType, file.headers, Payload(bytes: file.bytes, isText: false))
        }
        // lws allocates each connection's receive buffer (rx_buffer_size + LWS_PRE) at the
        // upgrade and keeps it while the connection lives: sized to fit one page with its
        // headroom, it costs an idle connection ~0.9 KiB less resident memory than 16 KiB did
        // (bench/README.md, idle connections). A bigger message arrives in more chunks for the
        // assembler. Sends are not tied to it (lws would cap each send() at rx_buffer_size
        // when tx_packet_size is 0): one send() may carry a whole coalesced write.
        allocations = LoopAllocations(
            protocolName: configuration.subprotocol, callback: serverCallback, rxBufferSize: 4 * 1024 - 128,
            txPacketSize: max(64 * 1024, configuration.coalesceBytes),
            pingIntervalSeconds: configuration.pingIntervalSeconds,
            idleTimeoutSeconds: configuration.idleTimeoutSeconds)
    }

    /// The service thread's body: create the context, report the outcome, serve until
    /// stopped, destroy the context.
    func run(reportingTo started: Latch<Result<Int, TransportError>>) {
        var info = lws_context_creation_info()
        let isIPv4 = ServerLoop.isIPv4Literal(configuration.host)
        info.iface = UnsafePointer(allocations.arena.dup(configuration.host))
        // Debian's lws (LWS_MAX_SMP 1) ignores ALLOW_LISTEN_SHARE, so with several threads
        // only the first listens and hands connections to the others (`handOff`).
        info.port = listens ? Int32(configuration.port) : CONTEXT_PORT_NO_LISTEN_SERVER
        info.protocols = UnsafePointer(allocations.protocols)
        info.uid = -1
        info.gid = -1
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.pt_serv_buf_size = 32 * 1024
        info.timeout_secs = UInt32(configuration.handshakeTimeoutSeconds)
        // A socket that holds lws' header table without finishing its request (lws' own
        // default is 10 s, whatever `timeout_secs` says).
        info.timeout_secs_ah_idle = UInt32(configuration.handshakeTimeoutSeconds)
        // As much as lws can hold: `maxHeaderBytes` is checked on what arrived (ServerLoop+HeaderLimit).
        info.max_http_header_data = UInt16.max
        info.options = rs_opt_validate_utf8() | rs_opt_fail_unable_to_bind() | (isIPv4 ? rs_opt_disable_ipv6() : 0)
        if configuration.pingIntervalSeconds > 0 { info.retry_and_idle_policy = UnsafePointer(allocations.retryPolicy) }
        if let cert = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
            info.options |= rs_opt_ssl_global_init()
            info.ssl_cert_filepath = UnsafePointer(allocations.arena.dup(cert))
            info.ssl_private_key_filepath = UnsafePointer(allocations.arena.dup(key))
            info.ssl_options_set = rs_ssl_options_tls12_floor()
            info.ssl_cipher_list = UnsafePointer(allocations.arena.dup(Self.tls12Ciphers))
            info.tls1_3_plus_cipher_list = UnsafePointer(allocations.arena.dup(Self.tls13Ciphers))
        }
        // libev on epoll, as a foreign loop the service thread runs itself (`serve`): lws'
        // default poll() backend walks every socket on each wake-up. The plugin is
        // `libwebsockets-evlib-ev`.
        guard let eventLoop = rs_ev_loop_new() else {
            started.fulfil(.failure(TransportError(.contextCreationFailed, "libev could not create an epoll loop")))
            return
        }
        var foreignLoops: [UnsafeMutableRawPointer?] = [eventLoop]
        info.options |= rs_opt_libev()
        let created = foreignLoops.withUnsafeMutableBufferPointer { loops in
            info.foreign_loops = loops.baseAddress
            return ContextCreations.create(&info)
        }
        guard let context = created else {
            rs_ev_loop_destroy(eventLoop)
            started.fulfil(.failure(diagnoseStartFailure()))
            return
        }
        self.eventLoop = eventLoop
        self.context = context
        connectionBudget = Self.connectionBudget(maxConnections: configuration.maxConnections)
        allocations.shutdownTimer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        let port = listens ? Int(lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "default"))) : 0
        inbox.open(context: context)
        started.fulfil(.success(port))
        // Hosted timers already due run before the loop polls (`runDueTimers`).
        let beforePoll: @convention(c) (UnsafeMutableRawPointer?) -> Void = { owner in
            Unmanaged<ServerLoop>.fromOpaque(owner!)._withUnsafeGuaranteedRef { $0.runDueTimers() }
        }
        allocations.serve(
            context, inbox: inbox, eventLoop: eventLoop, beforePoll: (Unmanaged.passUnretained(self).toOpaque(), beforePoll),
            undrained: closeSockets
        ) { exitRequested }
        self.context = nil
        self.eventLoop = nil
    }

    /// Works out why `lws_create_context` failed (lws reports only NULL).
    private func diagnoseStartFailure() -> TransportError {
        let endpoint = "\(configuration.host):\(configuration.port)"
        if configuration.port != 0, let errno = ServerLoop.probeBind(host: configuration.host, port: configuration.port),
            errno == EADDRINUSE || errno == EACCES || errno == EADDRNOTAVAIL
        {
            return TransportError(.addressInUse, "cannot bind \(endpoint): \(String(cString: strerror(errno)))" + Self.bindHint(errno))
        }
        for path in [configuration.tlsCertificatePath, configuration.tlsKeyPath].compactMap({ $0 })
        where access(path, R_OK) != 0 {
            return TransportError(.tlsSetupFailed, "cannot read \(path)")
        }
        if configuration.tlsCertificatePath != nil {
            return TransportError(.tlsSetupFailed, "libwebsockets could not set up TLS on \(endpoint) (see lws log)")
        }
        return TransportError(.contextCreationFailed, "libwebsockets could not listen on \(endpoint) (see lws log)")
    }

    /// What to do about a failed bind, for the operator who reads it.
    private static func bindHint(_ code: Int32) -> String {
        switch code {
        case EADDRINUSE: " (another process listens there, a running rivesyncd perhaps: stop it, or choose another port)"
        case EACCES: " (a port below 1024 needs privileges: choose a higher one)"
        default: " (the host is not an address of this machine)"
        }
    }

    /// Tries to bind `host:port` itself; returns the errno of a failure, or nil.
    private static func probeBind(host: String, port: Int) -> Int32? {
        var address = sockaddr_in()
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return rc == 0 ? nil : errno
    }

    /// Cipher suites up to TLS 1.2: ECDHE key exchange (forward secret) with AEAD only.
    static let tls12Ciphers = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")
    /// TLS 1.3 suites (all forward secret).
    static let tls13Ciphers = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"

    static func isIPv4Literal(_ host: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }

    /// Starts a graceful stop: close frames to everyone, then exit when all are gone or the
    /// grace period ends.
    func beginStop(closeCode: UInt16) {
        guard !stopping else { return }
        stopping = true
        dropPendingSockets()
        for session in sessions.all {
            requestClose(session, code: closeCode, reason: "server shutting down", immediate: true)
        }
        if sessions.isEmpty {
            exitRequested = true
            return
        }
        rs_timer_schedule(
            context, allocations.shutdownTimer,
            { sul in
                let loop = Unmanaged<ServerLoop>.fromOpaque(rs_timer_owner(sul)!).takeUnretainedValue()
                loop.exitRequested = true
            }, lws_usec_t(configuration.shutdownGraceMilliseconds) * 1000)
    }

    /// Marks a session for closing and asks for a `WRITEABLE` in which the close is sent.
    func requestClose(_ session: ServerSession, code: UInt16, reason: String, immediate: Bool) {
        if let existing = session.pendingClose, existing.immediate || !immediate { return }
        if immediate { discardQueue(of: session) }
        session.pendingClose = .init(code: code, reason: reason, immediate: immediate)
        requestWriteable(session)
    }

    /// Drops the session's unstarted messages and updates the gauges.
    func discardQueue(of session: ServerSession) {
        let bytesBefore = session.queue.bytes
        let countBefore = session.queue.count
        let dropped = session.queue.discardUnstarted()
        metrics.messagesDropped.wrappingAdd(dropped, ordering: .relaxed)
        queueChanged(session, bytesDelta: session.queue.bytes - bytesBefore, countDelta: session.queue.count - countBefore)
        updateReading(session)
    }

    /// Publishes a change of a session's queue to the per-session and total gauges.
    func queueChanged(_ session: ServerSession, bytesDelta: Int, countDelta: Int) {
        publishQueuedBytes(session)
        stripe.queuedBytes.wrappingAdd(bytesDelta, ordering: .relaxed)
        stripe.queuedMessages.wrappingAdd(countDelta, ordering: .relaxed)
    }

    /// Stores the session's queued bytes where other threads read them (`queuedBytes(_:)`):
    /// once per flush that lists the session, after its write, and wherever its queue changes
    /// outside a flush's reach (bench/README.md, "A delivery's cache misses").
    func publishQueuedBytes(_ session: ServerSession) {
        session.stats.queuedBytes.store(session.queue.bytes, ordering: .relaxed)
    }

    /// Whether lws' idle work runs before each poll of the loop (`LoopAllocations.serve`).
    var drivesLwsIdle: Bool { allocations.drivesLwsIdle }

    /// How many times the loop has polled (`epoll_wait`), 0 before it runs.
    var loopIterations: Int { eventLoop.map { Int(rs_ev_iteration($0)) } ?? 0 }

    /// Allocates the id of a new session.
    func makeSessionID() -> SessionID {
        defer { nextID += SessionID(threads) }
        return nextID
    }
}
