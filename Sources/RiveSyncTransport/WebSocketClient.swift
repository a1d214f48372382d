import Synchronization

/// The client role: one libwebsockets context and one service thread for any number of
/// outgoing WebSocket connections.
///
/// Threading mirrors `WebSocketServer`: only the service thread calls lws; the public API is
/// thread-safe and funnels commands through one inbox, so sends on a connection leave in call
/// order. Event callbacks run on the service thread.
public final class WebSocketClient: Sendable {
    /// Settings shared by all connections of this client.
    public struct Configuration: Sendable {
        /// Largest reassembled incoming message; bigger ones close the connection with 1009.
        public var maxMessageBytes = 16 * 1024 * 1024
        /// Seconds without traffic before lws pings the server (0: never).
        public var pingIntervalSeconds = 0
        /// Seconds without valid traffic before the connection is dropped (used with pings).
        public var idleTimeoutSeconds = 0
        /// How long `shutdown()` waits for servers to answer close frames.
        public var shutdownGraceMilliseconds = 2000

        /// Creates the default configuration.
        public init() {}
    }

    /// TLS checks for a `wss://` connection.
    public struct TLSOptions: Sendable, Hashable {
        /// Accept a self-signed server certificate.
        public var allowSelfSigned = false
        /// Do not compare the certificate's names with the host.
        public var skipHostnameCheck = false

        /// Full verification (system CA store, host name check).
        public init(allowSelfSigned: Bool = false, skipHostnameCheck: Bool = false) {
            self.allowSelfSigned = allowSelfSigned
            self.skipHostnameCheck = skipHostnameCheck
        }
    }

    /// Live counters of all connections of this client.
    public let metrics = TransportMetrics()

    private let inbox = Inbox<ClientLoop.Input>()
    private let thread: ServiceThread
    private let stopped = Locked(false)
    private let nextID = Atomic<UInt64>(1)

    /// Creates the lws client context and starts its service thread.
    public init(configuration: Configuration = .init()) throws(TransportError) {
        guard configuration.maxMessageBytes > 0,
            (0...32767).contains(configuration.pingIntervalSeconds),
            configuration.pingIntervalSeconds == 0
                || (configuration.pingIntervalSeconds + 1...65535).contains(configuration.idleTimeoutSeconds)
        else { throw TransportError(.invalidConfiguration, "client limits out of range") }
        TransportLog.configureDefaultIfNeeded()
        let loop = ClientLoop(configuration: configuration, inbox: inbox, metrics: metrics)
        let started = Latch<Result<Int, TransportError>>()
        thread = try ServiceThread { loop.run(reportingTo: started) }
        if case .failure(let error) = started.wait() {
            thread.join()
            throw error
        }
    }

    /// Shuts the client down if that has not happened; on its own service thread (last
    /// reference dropped in an event callback) the shutdown is only requested.
    deinit {
        if thread.isCurrent {
            inbox.submit(CollectionOfOne(.shutdown))
            thread.detach()
        } else {
            shutdown()
        }
    }

    /// Starts connecting to `url` and delivers events to `onEvent` on the service thread.
    ///
    /// - Parameters:
    ///   - url: `ws://` or `wss://` URL.
    ///   - subprotocol: value for `Sec-WebSocket-Protocol`, or nil to send none.
    ///   - headers: extra handshake headers (name without colon, value).
    ///   - origin: `Origin` header; none by default (a non-browser client: a daemon's
    ///     `allowedOrigins` list does not apply to it).
    ///   - tls: certificate checks for `wss://`.
    ///   - onEvent: called on the service thread; must not block.
    /// - Returns: the connection, usable at once (sends are queued until it opens).
    public func connect(
        to url: String, subprotocol: String? = nil, headers: [(name: String, value: String)] = [],
        origin: String? = nil, tls: TLSOptions = .init(),
        onEvent: @escaping @Sendable (ClientEvent) -> Void
    ) throws(TransportError) -> ClientConnection {
        guard let parsed = WebSocketURL(url) else { throw TransportError(.invalidURL, url) }
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        let request = ClientLoop.ConnectRequest(
            id: id, url: parsed, subprotocol: subprotocol, headers: headers,
            origin: origin, tls: tls, onEvent: onEvent)
        guard inbox.submit(CollectionOfOne(.connect(request))) else {
            throw TransportError(.notRunning, "client was shut down")
        }
        return ClientConnection(id: id, client: self)
    }

    /// Like `connect(to:…onEvent:)`, but returns the events as an `AsyncStream`, which finishes
    /// after the terminal event. The default buffer is unbounded; pass a bounded policy for
    /// long-running consumers.
    public func connect(
        to url: String, subprotocol: String? = nil, headers: [(name: String, value: String)] = [],
        origin: String? = nil, tls: TLSOptions = .init(),
        bufferingPolicy: AsyncStream<ClientEvent>.Continuation.BufferingPolicy = .unbounded
    )
        throws(TransportError) -> (ClientConnection, AsyncStream<ClientEvent>)
    {
        let (stream, continuation) = AsyncStream.makeStream(of: ClientEvent.self, bufferingPolicy: bufferingPolicy)
        let connection = try connect(to: url, subprotocol: subprotocol, headers: headers, origin: origin, tls: tls) {
            event in
            continuation.yield(event)
            if event.isTerminal { continuation.finish() }
        }
        return (connection, stream)
    }

    /// Closes every connection with 1001, waits up to `shutdownGraceMilliseconds` for the
    /// close handshakes, destroys the context and joins the service thread. Every connection
    /// gets its terminal event. Idempotent; must not be called from an event callback.
    public func shutdown() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        precondition(!thread.isCurrent, "WebSocketClient.shutdown() called on its own service thread")
        inbox.submit(CollectionOfOne(.shutdown))
        thread.join()
    }

    func submit(_ input: ClientLoop.Input) -> Bool {
        inbox.submit(CollectionOfOne(input))
    }
}

/// One outgoing connection of a `WebSocketClient`. Thread-safe; holds no lws pointers.
public final class ClientConnection: Sendable {
    /// Identifies the connection within its client.
    public let id: UInt64
    private let client: WebSocketClient

    init(id: UInt64, client: WebSocketClient) {
        self.id = id
        self.client = client
    }

    /// Queues a message. Every write is copied into a fresh buffer (client frames are masked
    /// in place, LWS.md §3.4), so the payload may be shared freely.
    /// - Returns: false if the client was shut down.
    @discardableResult
    public func send(_ payload: Payload) -> Bool {
        client.submit(.send(id, payload))
    }

    /// Queues a text message.
    @discardableResult
    public func send(text: String) -> Bool {
        send(Payload(text: text))
    }

    /// Queues a binary (or, with `isText`, text) message.
    @discardableResult
    public func send(bytes: [UInt8], isText: Bool = false) -> Bool {
        send(Payload(bytes: bytes, isText: isText))
    }

    /// Closes after the queued messages are written.
    @discardableResult
    public func close(code: UInt16 = 1000, reason: String = "") -> Bool {
        client.submit(.close(id, code: code, reason: reason))
    }
}
