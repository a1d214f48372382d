import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A WebSocket + HTTP server on libwebsockets: one context and one dedicated service thread,
/// or `Configuration.serviceThreads` of each pair on one shared port.
///
/// Threading: a session's service thread is the only thread that calls lws for it (besides
/// `lws_cancel_service`, see `Inbox`). All public methods are thread-safe. Commands submitted
/// from any thread are applied on the sessions' service threads in submit order; per session,
/// that order is the order bytes reach the socket. Sessions are addressed by `SessionID`, never
/// by pointer; a session's id says its thread (`(id - 1) % serviceThreads`).
public final class WebSocketServer: Sendable {
    /// A request to the service thread.
    public enum Command: Sendable {
        /// Queue `payload` for each session in `ids` (unknown or closing ids are skipped).
        /// The one `Payload` is shared by all of them, no copy per session.
        case send(Payload, to: SessionIDs)
        /// Close the session with `code` / `reason` after its already queued messages are written.
        case close(SessionID, code: UInt16, reason: String)
        /// Discard the session's queued messages that have not started leaving, clear an
        /// overflow, then queue `payloads` (which bypass the byte limit once).
        case replaceQueue(SessionID, with: [Payload])
        /// Hand an accepted, connected socket to lws as a new server connection (it then does
        /// the HTTP/WebSocket handshake like any other). The server owns `fd` afterwards.
        case adopt(fileDescriptor: Int32)
        /// Re-read the TLS certificate chain and key from the configured files (same paths)
        /// for new connections; open ones keep theirs. The pair is checked first: a file that
        /// cannot be read, or a key that does not match, keeps the old pair. `done` is called
        /// on the service thread with the outcome (`.tlsSetupFailed`, or `.notRunning`).
        case reloadCertificates(done: @Sendable (Result<Void, TransportError>) -> Void)
        /// One message the handler received from the session is done with (with
        /// `Configuration.maxUnhandledMessagesPerSession` > 0, send exactly one per message).
        case handled(SessionID)
    }

    /// The settings this server was created with.
    public let configuration: Configuration
    /// Live counters, readable from any thread (include them in `/metrics`).
    public let metrics: TransportMetrics

    private let handler: any WebSocketServerHandler
    private let metricsBody: @Sendable (TransportMetrics) -> String
    private let readiness: @Sendable () -> Bool
    private let metricsAccess: @Sendable (_ authorization: String?, _ remoteAddress: String) -> HTTPAccess
    private let steering: (@Sendable (_ requestTarget: String) -> Int?)?
    /// One per service thread.
    let inboxes: [Inbox<ServerLoop.Input>]
    private let state = Locked<RunState>(.idle)
    private let sessionStats = Locked<[SessionID: SessionStats]>([:])
    private let connectionCounts = ConnectionCounts()
    /// The thread the next adopted socket goes to (in turn).
    private let nextAdopter = Atomic<Int>(0)
    /// Where a service thread keeps its loop (`ServerLoop.threadKey`), read once.
    let loopKey = ServerLoop.threadKey

    private enum RunState {
        case idle
        case running([ServiceThread], port: Int)
        case stopped
    }

    /// Creates a server; nothing is bound until `start()`.
    /// - Parameters:
    ///   - configuration: listen address, TLS and limits.
    ///   - handler: receives session events on the service thread.
    ///   - metricsAccess: decides, from the `Authorization` header (nil when absent) and the
    ///     peer's address, whether `GET /metrics` is answered; on the service thread, must be
    ///     quick. Defaults to everyone.
    ///   - metricsBody: produces the body of `GET /metrics` (Prometheus text), on the service
    ///     thread; must be quick. Defaults to the transport's own metrics.
    ///   - steering: with several service threads, which one serves a connection, from its
    ///     request target (`/path?query`, as sent): the thread's index, or nil for the next in
    ///     turn. Called on the listening thread before lws reads the request (which is left on
    ///     the socket), so it must be quick. Only plain sockets accepted on the port are
    ///     steered: TLS ones (the request is encrypted) and `Command.adopt`ed ones go in turn.
    public init(
        configuration: Configuration, handler: any WebSocketServerHandler,
        metricsAccess: @escaping @Sendable (_ authorization: String?, _ remoteAddress: String) -> HTTPAccess = { _, _ in .allowed },
        metricsBody: @escaping @Sendable (TransportMetrics) -> String = { $0.prometheusText() },
        readiness: @escaping @Sendable () -> Bool = { true },
        steering: (@Sendable (_ requestTarget: String) -> Int?)? = nil
    ) {
        self.configuration = configuration
        self.handler = handler
        self.metricsAccess = metricsAccess
        self.metricsBody = metricsBody
        self.readiness = readiness
        self.steering = steering
        inboxes = (0..<max(configuration.serviceThreads, 1)).map { _ in Inbox() }
        metrics = TransportMetrics(serviceThreads: inboxes.count)
    }

    /// Binds, starts the service thread, and returns once the server accepts connections.
    ///
    /// - Throws: `TransportError` with kind `.invalidConfiguration`, `.addressInUse`,
    ///   `.tlsSetupFailed`, `.contextCreationFailed` or `.threadCreationFailed`; also
    ///   `.notRunning` if the server was started before (a server runs at most once).
    public func start() throws(TransportError) {
        try configuration.validate()
        TransportLog.configureDefaultIfNeeded()
        try state.withLock { (state) throws(TransportError) in
            guard case .idle = state else { throw TransportError(.notRunning, "a server can be started only once") }
            var threads: [ServiceThread] = []
            var port = 0
            for index in inboxes.indices {
                do throws(TransportError) {
                    let (thread, bound) = try startLoop(index)
                    threads.append(thread)
                    if index == 0 { port = bound }
                } catch {
                    for (inbox, thread) in zip(inboxes, threads) {
                        inbox.submit(CollectionOfOne(.stop(closeCode: 1001)))
                        thread.join()
                    }
                    state = .stopped
                    throw error
                }
            }
            state = .running(threads, port: port)
        }
    }

    /// Starts service thread `index`; returns it and the port it bound (0 when it does not
    /// listen), once it serves.
    private func startLoop(_ index: Int) throws(TransportError) -> (ServiceThread, port: Int) {
        var handOff: (@Sendable (Int32, String?, Int?) -> Bool)?
        var steers: (@Sendable (String) -> Int?)?
        if index == 0, inboxes.count > 1 {
            handOff = { [weak self] socket, admitted, thread in self?.handOff(socket, admitted: admitted, to: thread) ?? false }
            if configuration.listens, configuration.tlsCertificatePath == nil { steers = steering }
        }
        let loop = ServerLoop(
            configuration: configuration, handler: handler, metrics: metrics,
            metricsAccess: metricsAccess, metricsBody: metricsBody, readiness: readiness, inbox: inboxes[index],
            sessionStats: sessionStats, thread: (index, inboxes.count), connectionCounts: connectionCounts, handOff: handOff,
            steering: steers)
        let started = Latch<Result<Int, TransportError>>()
        let thread = try ServiceThread {
            loop.enterServiceThread()
            loop.run(reportingTo: started)
        }
        switch started.wait() {
        case .success(let bound):
            return (thread, bound)
        case .failure(let error):
            thread.join()
            throw error
        }
    }

    /// The listening thread's accepted `socket`, when it goes to another thread (`thread`, or
    /// the next in turn): true once that thread has it, false to keep it on the listening
    /// thread. Not `admitted`: a duplicate goes as `Command.adopt` (which admits it there) and
    /// lws closes its own descriptor. `admitted` (a steered socket, counted with that peer
    /// address): the socket itself goes, its place in the counts with it.
    private func handOff(_ socket: Int32, admitted: String?, to thread: Int?) -> Bool {
        let index = thread ?? nextAdopter.wrappingAdd(1, ordering: .relaxed).oldValue % inboxes.count
        guard index != 0 else { return false }
        if let admitted { return inboxes[index].submit(CollectionOfOne(.adoptAdmitted(socket, address: admitted))) }
        let copy = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return false }
        guard inboxes[index].submit(CollectionOfOne(.command(.adopt(fileDescriptor: copy)))) else {
            Glibc.close(copy)
            return false
        }
        return true
    }

    /// Stops a still-running server. When the last reference goes away on the service thread
    /// itself (inside a handler call), the stop is only requested and the thread detached.
    deinit {
        guard case .running(let threads, _) = state.withLock({ $0 }) else { return }
        if threads.contains(where: \.isCurrent) {
            for (inbox, thread) in zip(inboxes, threads) {
                inbox.submit(CollectionOfOne(.stop(closeCode: 1001)))
                thread.detach()
            }
        } else {
            stop()
        }
    }

    /// The bound TCP port while running (the real one when `port` was 0), else nil.
    public var port: Int? {
        state.withLock { state in
            if case .running(_, let port) = state { return port }
            return nil
        }
    }

    /// Applies `commands` in order on the sessions' service threads: one lock and at most one
    /// wakeup per thread concerned.
    /// - Returns: false when the server is not running (nothing was queued).
    @discardableResult
    public func submit(_ commands: [Command]) -> Bool {
        if let loop = ownLoop() { return loop._withUnsafeGuaranteedRef { submit(commands, from: $0) } }
        return submitToInboxes(commands)
    }

    /// `submit` through the inboxes. `stripe`: where the sends in transit are counted (the
    /// submitting service thread's own; the first thread's from any other thread).
    func submitToInboxes(_ commands: [Command], countedOn stripe: TransportStripe? = nil) -> Bool {
        countInTransit(commands, on: stripe ?? metrics.stripes[0])
        guard inboxes.count > 1 else { return inboxes[0].submit(commands.lazy.map { .command($0) }) }
        var inputs = [[ServerLoop.Input]](repeating: [], count: inboxes.count)
        for command in commands { sort(command, into: &inputs) }
        var submitted = true
        for (inbox, commands) in zip(inboxes, inputs) where !commands.isEmpty {
            submitted = inbox.submit(commands) && submitted
        }
        return submitted
    }

    /// Puts a command into the inputs of the threads it concerns: a session's commands to its
    /// thread, a send split by thread (the payload shared), an adopted socket to the next
    /// thread in turn, a certificate reload to every thread (`done` called once, after all).
    private func sort(_ command: Command, into inputs: inout [[ServerLoop.Input]]) {
        switch command {
        case .send(let payload, let ids):
            guard let first = ids.first else { return }
            // Every session on one thread (one session, or a room steered to its thread): no split.
            let firstThread = thread(of: first)
            if ids.allSatisfy({ thread(of: $0) == firstThread }) {
                inputs[firstThread].append(.command(command))
                return
            }
            var split = [[SessionID]](repeating: [], count: inboxes.count)
            for id in ids { split[thread(of: id)].append(id) }
            for (index, ids) in split.enumerated() where !ids.isEmpty {
                inputs[index].append(.command(.send(payload, to: SessionIDs(ids))))
            }
        case .close(let id, _, _), .replaceQueue(let id, _), .handled(let id):
            inputs[thread(of: id)].append(.command(command))
        case .adopt:
            let index = nextAdopter.wrappingAdd(1, ordering: .relaxed).oldValue % inboxes.count
            inputs[index].append(.command(command))
        case .reloadCertificates(let done):
            let outcomes = Locked<(left: Int, failure: TransportError?)>((inboxes.count, nil))
            let each: @Sendable (Result<Void, TransportError>) -> Void = { result in
                let finished: TransportError?? = outcomes.withLock { outcomes in
                    if case .failure(let error) = result, outcomes.failure == nil { outcomes.failure = error }
                    outcomes.left -= 1
                    return outcomes.left == 0 ? .some(outcomes.failure) : nil
                }
                guard let finished else { return }
                done(finished.map { .failure($0) } ?? .success(()))
            }
            for index in inputs.indices { inputs[index].append(.command(.reloadCertificates(done: each))) }
        }
    }

    /// The service thread a session lives on.
    func thread(of id: SessionID) -> Int { Self.serviceThread(of: id, among: inboxes.count) }

    /// The service thread a session lives on in a server of `threads` service threads (its
    /// id says it), for a handler that keeps state per thread.
    public static func serviceThread(of id: SessionID, among threads: Int) -> Int { Int((id &- 1) % SessionID(max(threads, 1))) }

    /// The inbox of a session's service thread.
    private func inbox(of id: SessionID) -> Inbox<ServerLoop.Input> { inboxes[thread(of: id)] }

    /// Queues one shared `payload` for every session in `ids`. See `Command.send`.
    @discardableResult
    public func send(_ payload: Payload, to ids: SessionIDs) -> Bool {
        guard inboxes.count == 1, ownLoop() == nil else { return submit([.send(payload, to: ids)]) }
        countInTransit(CollectionOfOne(.send(payload, to: ids)), on: metrics.stripes[0])
        return inboxes[0].submit(CollectionOfOne(.command(.send(payload, to: ids))))
    }

    /// Counts the sends of a submit before the service thread applies them, so `queuedBytes`
    /// includes them from the moment they are submitted (a reading taken right after a submit
    /// is never stale). One lock for the whole submit, none when it sends nothing.
    private func countInTransit(_ commands: some Collection<Command>, on stripe: TransportStripe) {
        var total = 0
        for case .send(let payload, let ids) in commands { total += payload.count * ids.count }
        guard total > 0 else { return }
        sessionStats.withLock { stats in
            for case .send(let payload, let ids) in commands {
                for id in ids { stats[id]?.inTransit.add(payload.count, ordering: .relaxed) }
            }
        }
        stripe.bytesInTransit.add(total, ordering: .relaxed)
    }

    /// Closes a session after its queued messages. See `Command.close`.
    @discardableResult
    public func close(_ id: SessionID, code: UInt16 = 1000, reason: String = "") -> Bool {
        if ownLoop() != nil { return submit([.close(id, code: code, reason: reason)]) }
        return inbox(of: id).submit(CollectionOfOne(.command(.close(id, code: code, reason: reason))))
    }

    /// Message bytes queued for `id` and not yet fully written, or nil for an unknown session.
    ///
    /// Sends submitted but not yet applied by the service thread count too. Use it for
    /// slow-consumer policy (e.g. replace a growing backlog with a catch-up via
    /// `Command.replaceQueue`).
    public func queuedBytes(_ id: SessionID) -> Int? {
        // On the session's own service thread its queue is read where it lies: what the thread
        // queued is published by the flush at the end of its callback (hosted work that runs
        // before that flush asks here).
        if let loop = ownLoop()?.takeUnretainedValue(), loop.index == thread(of: id) {
            return loop.sessions.lend(id)?._withUnsafeGuaranteedRef {
                $0.queue.bytes + $0.stats.inTransit.load(ordering: .relaxed)
            }
        }
        return sessionStats.withLock { $0[id] }.map {
            $0.queuedBytes.load(ordering: .relaxed) + $0.inTransit.load(ordering: .relaxed)
        }
    }

    /// Message bytes queued for all sessions together, sends in transit included.
    public var totalQueuedBytes: Int {
        metrics.queuedBytes + metrics.bytesInTransit
    }

    /// Sends close frames with `closeCode` to every session, waits up to
    /// `shutdownGraceMilliseconds` for them to finish, destroys the context and joins the
    /// service thread. `closed` is called for every session still open. Idempotent; must not
    /// be called from a handler method (it would wait for its own thread).
    public func stop(closeCode: UInt16 = 1001) {
        let threads: [ServiceThread] = state.withLock { state in
            guard case .running(let threads, _) = state else { return [] }
            state = .stopped
            return threads
        }
        precondition(!threads.contains(where: \.isCurrent), "WebSocketServer.stop() called on its own service thread")
        // Every thread starts its graceful close at once; then each is waited for.
        for inbox in inboxes { inbox.submit(CollectionOfOne(.stop(closeCode: closeCode))) }
        for thread in threads { thread.join() }
    }
}

/// Cross-thread view of one session, for `queuedBytes(_:)`.
final class SessionStats: Sendable {
    /// The object's size on 64-bit (its header and the two counters), for `rs_prefetch`.
    static let bytes = 32
    /// The session's queued bytes as its service thread last published them
    /// (`ServerLoop.publishQueuedBytes`).
    let queuedBytes = Atomic<Int>(0)
    /// Bytes of sends submitted to the session that the service thread has not applied yet.
    let inTransit = Atomic<Int>(0)
}
