extension WebSocketServer {
    /// What to do when a session's send queue would exceed its byte limit.
    public enum OverflowPolicy: Sendable, Hashable {
        /// Close the session at once with this close code (e.g. 1008), discarding its queue.
        case close(code: UInt16)
        /// Drop every further message for the session until the caller submits
        /// `Command.replaceQueue` for it (e.g. with a coalesced catch-up), which clears the state.
        case dropUntilReplaced
    }

    /// Validated settings of a server. Every limit has a finite default.
    public struct Configuration: Sendable {
        /// Listen address. An IPv4 literal automatically disables IPv6 in lws, which otherwise
        /// binds all interfaces for it (LWS.md §3.1).
        public var host = "127.0.0.1"
        /// Listen port; 0 picks an ephemeral port, see `WebSocketServer.port`.
        public var port = 0
        /// False: bind nothing; connections arrive only through `Command.adopt` (systemd socket
        /// activation, where the caller accepts on the inherited socket). `port` then reads 0.
        public var listens = true
        /// PEM certificate chain file; together with `tlsKeyPath` enables TLS (wss/https).
        public var tlsCertificatePath: String?
        /// PEM private key file.
        public var tlsKeyPath: String?
        /// WebSocket subprotocol name; clients that ask for none are bound to it as well.
        public var subprotocol = "rivesync.v1"
        /// Largest reassembled incoming message; bigger ones close the session with 1009.
        public var maxMessageBytes = 16 * 1024 * 1024
        /// Largest send backlog per session before `overflowPolicy` applies.
        public var maxQueuedBytesPerSession = 8 * 1024 * 1024
        /// With a value above 0, the session is not read while this many of its messages were
        /// delivered to the handler and not yet reported done with `Command.handled`
        /// (back-pressure on work queued behind the handler). 0: not counted.
        public var maxUnhandledMessagesPerSession = 0
        /// Reaction to a send-queue overflow.
        public var overflowPolicy = OverflowPolicy.close(code: 1008)
        /// Most simultaneous connections, counted from `accept` (WebSocket, plain HTTP and
        /// sockets that have not finished a handshake); past it a new connection gets HTTP 503
        /// and is closed. Never more than the process' file-descriptor limit allows
        /// (`ServerLoop.connectionBudget`).
        public var maxConnections = 1024
        /// Most simultaneous connections from one peer address, counted the same way (HTTP 503
        /// past it).
        public var maxConnectionsPerAddress = 1024
        /// Seconds a new socket has to complete its HTTP request or WebSocket handshake
        /// (lws' `timeout_secs` and `timeout_secs_ah_idle`): a socket that sends nothing, or
        /// an incomplete request, is closed then.
        public var handshakeTimeoutSeconds = 10
        /// Most bytes of a request's line and headers (as lws stores them: values, and names of
        /// headers it does not know); a request past it gets HTTP 431 and is closed.
        public var maxHeaderBytes = 16 * 1024
        /// Seconds without traffic before lws sends a ping (0 disables pings and idle hangup).
        public var pingIntervalSeconds = 30
        /// Seconds without any valid traffic (pongs count) before the connection is dropped.
        public var idleTimeoutSeconds = 75
        /// Up to this many bytes of small queued messages are framed into one socket write.
        /// 0 disables coalescing.
        public var coalesceBytes = 16 * 1024
        /// The kernel send buffer of each connection (`SO_SNDBUF`), so that a peer that stops
        /// reading holds a bounded amount of kernel memory; 0 keeps the kernel's autotuning.
        /// Writes leave as soon as they are queued while the socket has room, so without a bound
        /// the kernel, not the send queue, would absorb a slow peer's backlog (megabytes).
        public var socketSendBufferBytes = 0
        /// How long `stop()` waits for peers to answer close frames before tearing down.
        public var shutdownGraceMilliseconds = 2000
        /// Service threads, each with its own lws context (`LWS_MAX_SMP` is 1) listening on the
        /// same port through `SO_REUSEPORT`: the kernel spreads new connections over them, and a
        /// session stays on the thread that accepted it. Handler methods are then called from
        /// several threads at once (each session's from its own thread, in order). Adopted
        /// sockets go to the threads in turn.
        public var serviceThreads = 1
        /// Files answered for `GET` at their path (exact match, query string ignored), besides
        /// `/healthz` and `/metrics`; any other path is 404.
        public var staticFiles: [String: StaticFile] = [:]

        /// Creates the default configuration (loopback, ephemeral port, no TLS).
        public init() {}

        func validate() throws(TransportError) {
            func check(_ ok: Bool, _ what: String) throws(TransportError) {
                if !ok { throw TransportError(.invalidConfiguration, what) }
            }
            try check((0...65535).contains(port), "port must be 0...65535")
            try check(!host.isEmpty, "host must not be empty")
            try check((tlsCertificatePath == nil) == (tlsKeyPath == nil), "TLS needs both certificate and key")
            try check(
                !subprotocol.isEmpty && subprotocol.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x2C },
                "subprotocol must be a non-empty token")
            try check(maxMessageBytes > 0, "maxMessageBytes must be positive")
            try check(maxQueuedBytesPerSession > 0, "maxQueuedBytesPerSession must be positive")
            try check(maxConnections > 0, "maxConnections must be positive")
            try check(maxConnectionsPerAddress > 0, "maxConnectionsPerAddress must be positive")
            try check((1...3600).contains(handshakeTimeoutSeconds), "handshakeTimeoutSeconds must be 1...3600")
            try check((1024...65535).contains(maxHeaderBytes), "maxHeaderBytes must be 1024...65535")
            try check(maxUnhandledMessagesPerSession >= 0, "maxUnhandledMessagesPerSession must not be negative")
            try check((0...Int(Int32.max / 2)).contains(socketSendBufferBytes), "socketSendBufferBytes must be 0...1 GiB")
            try check((0...32767).contains(pingIntervalSeconds), "pingIntervalSeconds must be 0...32767")
            try check(
                pingIntervalSeconds == 0 || (idleTimeoutSeconds > pingIntervalSeconds && idleTimeoutSeconds <= 65535),
                "idleTimeoutSeconds must exceed pingIntervalSeconds")
            try check(coalesceBytes >= 0, "coalesceBytes must not be negative")
            try check(shutdownGraceMilliseconds >= 0, "shutdownGraceMilliseconds must not be negative")
            try check((1...64).contains(serviceThreads), "serviceThreads must be 1...64")
            try check(
                staticFiles.keys.allSatisfy { $0.hasPrefix("/") && $0 != "/healthz" && $0 != "/metrics" },
                "static file paths must start with / and not be /healthz or /metrics")
            try check(
                staticFiles.values.allSatisfy { file in
                    file.headers.allSatisfy { header in
                        !header.name.isEmpty && (header.name + header.value).utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F }
                            && !header.name.contains(":")
                    }
                }, "static file headers must be printable, with names without ':'")
        }
    }
}
