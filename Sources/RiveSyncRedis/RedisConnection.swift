import CHiredis
import Glibc
import Synchronization

/// One blocking connection to Redis (a hiredis context): commands are sent as argv arrays
/// (binary-safe), replies come back typed. Not thread-safe — one thread uses a connection at a
/// time (a blocking read such as `XREAD BLOCK` gets its own connection on its own thread, see
/// `RedisStreamReader`); only `interrupter` may be used from another thread.
///
/// After an error that `closesConnection`, every later command throws `connectionLost`:
/// make a new connection.
public final class RedisConnection {
    public let endpoint: RedisEndpoint
    private let context: UnsafeMutablePointer<redisContext>
    private var broken: RedisError?
    /// Set when the server answered that it is a replica now (`READONLY` to a write,
    /// `UNBLOCKED` to a blocking read its demotion ended): after a failover the old primary's
    /// connections must be replaced, and one found so while idle is broken.
    private var demoted = false
    /// Shuts the socket down from another thread (wakes a blocking read).
    public let interrupter: Interrupter

    /// Connects, within `timeout`, and logs in (`AUTH`, `SELECT`) as the endpoint says. Each
    /// later command must be answered within `timeout` too (see `setTimeout`).
    ///
    /// For a Sentinel endpoint the Sentinels are asked in turn where the primary is
    /// (`SENTINEL get-master-addr-by-name`; the first that answers is believed), and the server
    /// named must say it is a primary (`ROLE`): during a failover, before a replica is promoted
    /// or while the old primary is demoted, the connect fails and the caller tries again later.
    ///
    /// hiredis writes with `write(2)`: a server that closed the connection would raise
    /// `SIGPIPE`, whose default action ends the process. The first connection therefore ignores
    /// `SIGPIPE` process-wide (as libwebsockets does when it creates a context), so the write
    /// fails with `EPIPE` and the command throws `connectionLost`.
    public init(_ endpoint: RedisEndpoint, timeout: Duration) throws(RedisError) {
        _ = Self.brokenPipesIgnored
        self.endpoint = endpoint
        let server =
            endpoint.usesSentinels ? try Self.primary(of: endpoint, timeout: timeout) : .init(host: endpoint.host, port: endpoint.port)
        guard let context = redisConnectWithTimeout(server.host, Int32(server.port), Self.timeval(timeout)) else {
            throw .connectFailed("out of memory")
        }
        if context.pointee.err != 0 {
            let reason = Self.errorText(context)
            redisFree(context)
            throw .connectFailed(reason)
        }
        self.context = context
        interrupter = Interrupter(fd: context.pointee.fd)
        do {
            try setTimeout(timeout)
            _ = redisEnableKeepAlive(context)
            if let password = endpoint.password {
                let login = [endpoint.username, password].compactMap { $0 }.map { RedisArgument($0) }
                try command(["AUTH"] + login).expectStatus("OK")
            }
            if endpoint.database != 0 { try command(["SELECT", RedisArgument(endpoint.database)]).expectStatus("OK") }
            if endpoint.usesSentinels, try command(["ROLE"]).array()?.first?.string() != "master" {
                throw RedisError.connectFailed("\(server.host):\(server.port) is not a primary (a failover is under way)")
            }
        } catch {
            close()
            throw .connectFailed("\(error)")
        }
    }

    deinit { close() }

    private static let brokenPipesIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Where the Sentinels of `endpoint` say its primary is: the first Sentinel that names one.
    private static func primary(of endpoint: RedisEndpoint, timeout: Duration) throws(RedisError) -> RedisEndpoint.Address {
        var reasons: [String] = []
        for sentinel in endpoint.sentinels {
            do {
                let connection = try RedisConnection(RedisEndpoint(host: sentinel.host, port: sentinel.port), timeout: timeout)
                defer { connection.close() }
                let reply = try connection.command(["SENTINEL", "get-master-addr-by-name", RedisArgument(endpoint.primaryName ?? "")])
                guard let address = try reply.array(), address.count == 2, let host = try address[0].string(),
                    let port = try address[1].string().flatMap({ Int($0) })
                else {
                    reasons.append("\(sentinel.host):\(sentinel.port) knows no primary of that name")
                    continue
                }
                return .init(host: host, port: port)
            } catch {
                reasons.append("\(sentinel.host):\(sentinel.port): \(error)")
            }
        }
        throw .connectFailed("no Sentinel named the primary '\(endpoint.primaryName ?? "")' (\(reasons.joined(separator: "; ")))")
    }

    /// True once the connection is unusable (after an error that closes it, or `close()`).
    public var isBroken: Bool { broken != nil }

    /// True when the connection can be used for a new command: not broken, and — to be asked
    /// only while no reply is awaited — its socket has nothing to read (Redis sends nothing
    /// unasked, so something readable then is the end of the stream or an error: Redis closed
    /// it, for instance when it stopped). Never waits. A connection found closed is broken.
    public func isOpenWhileIdle() -> Bool {
        guard broken == nil else { return false }
        if demoted {
            broken = .connectionLost("the server is a replica now")
            return false
        }
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return true }
        broken = .connectionLost("closed by Redis while idle")
        return false
    }

    /// Sets how long a command may wait for its reply (longer than any `BLOCK` it sends).
    public func setTimeout(_ timeout: Duration) throws(RedisError) {
        try checkUsable()
        guard redisSetTimeout(context, Self.timeval(timeout)) == REDIS_OK else { throw fail() }
    }

    /// Sends one command and waits for its reply. An error reply throws `.server`.
    @discardableResult
    public func command(_ arguments: [RedisArgument]) throws(RedisError) -> RedisReply {
        try checkUsable()
        let raw = Self.withArgv(arguments) { count, argv, lengths in redisCommandArgv(context, count, argv, lengths) }
        guard let raw else { throw fail() }
        let reply = Self.convert(raw.assumingMemoryBound(to: redisReply.self))
        freeReplyObject(raw)
        if case .error(let message) = reply {
            noteDemotion(message)
            // Nothing else is awaited on this connection: replace it before the next command.
            if demoted { broken = .connectionLost("the server is a replica now") }
            throw .server(message)
        }
        return reply
    }

    /// Sends several commands at once and reads their replies in order (one round trip).
    /// Error replies come back as `.error` elements; a broken connection throws.
    public func pipeline(_ commands: [[RedisArgument]]) throws(RedisError) -> [RedisReply] {
        for arguments in commands { try send(arguments) }
        var replies: [RedisReply] = []
        for _ in commands { replies.append(try receive()) }
        return replies
    }

    /// Buffers one command without waiting for its reply (written by `flush`, or by the next
    /// `receive` that waits). Several commands may be in flight: Redis runs one connection's
    /// commands in the order they arrive and replies in that order (`RedisWindow`).
    public func send(_ arguments: [RedisArgument]) throws(RedisError) {
        try checkUsable()
        let status = Self.withArgv(arguments) { count, argv, lengths in redisAppendCommandArgv(context, count, argv, lengths) }
        guard status == REDIS_OK else { throw fail() }
    }

    /// Writes every buffered command (blocking, within the connection's timeout).
    public func flush() throws(RedisError) {
        try checkUsable()
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw fail() }
        }
    }

    /// The reply to the oldest command sent and not answered yet, waiting for it (what is
    /// buffered is written first). An error reply comes back as `.error`; a broken connection
    /// throws.
    public func receive() throws(RedisError) -> RedisReply {
        try checkUsable()
        var raw: UnsafeMutableRawPointer?
        guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw fail() }
        defer { freeReplyObject(raw) }
        let reply = Self.convert(raw.assumingMemoryBound(to: redisReply.self))
        if case .error(let message) = reply { noteDemotion(message) }
        return reply
    }

    /// That reply if it has been read from the socket already, else nil: never waits.
    public func bufferedReply() throws(RedisError) -> RedisReply? {
        try checkUsable()
        var raw: UnsafeMutableRawPointer?
        guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw fail() }
        guard let raw else { return nil }
        defer { freeReplyObject(raw) }
        return Self.convert(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Closes the connection (also done when it is released).
    public func close() {
        guard interrupter.invalidate() else { return }
        if broken == nil { broken = .connectionLost("closed") }
        redisFree(context)
    }

    /// Wakes a thread blocked on this connection by shutting its socket down; that thread's
    /// command then throws `connectionLost`. Safe from any thread, before or after `close()`.
    public final class Interrupter: Sendable {
        private let fd: Mutex<Int32?>

        init(fd: Int32) { self.fd = Mutex(fd) }

        public func interrupt() {
            fd.withLock { fd in
                if let fd { _ = shutdown(fd, Int32(SHUT_RDWR)) }
            }
        }

        /// Forgets the descriptor (it is about to be closed); false if already forgotten.
        fileprivate func invalidate() -> Bool {
            fd.withLock { fd in
                defer { fd = nil }
                return fd != nil
            }
        }
    }

    /// Notes an error reply that says the server is no longer the primary (see `demoted`).
    private func noteDemotion(_ message: String) {
        guard message.hasPrefix("READONLY") || message.hasPrefix("UNBLOCKED") else { return }
        demoted = true
    }

    private func checkUsable() throws(RedisError) {
        if let broken { throw broken.closesConnection ? RedisError.connectionLost("\(broken)") : broken }
    }

    /// The context's error as a typed error; the connection is broken from now on.
    private func fail() -> RedisError {
        let timedOut = errno == EAGAIN || errno == EWOULDBLOCK
        let error: RedisError
        switch context.pointee.err {
        case REDIS_ERR_IO where timedOut: error = .timedOut
        case REDIS_ERR_PROTOCOL: error = .protocolError(Self.errorText(context))
        default: error = .connectionLost(Self.errorText(context))
        }
        broken = error
        return error
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }

    /// Calls `body` with hiredis's argv form of `arguments`: count, pointers and lengths.
    private static func withArgv<Result>(
        _ arguments: [RedisArgument],
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Result
    ) -> Result {
        // One buffer holds every argument's bytes; the pointers point into it.
        let total = arguments.reduce(0) { $0 + $1.bytes.count }
        var storage = [CChar](repeating: 0, count: max(total, 1))
        var lengths = arguments.map(\.bytes.count)
        return storage.withUnsafeMutableBufferPointer { buffer in
            var offset = 0
            var pointers: [UnsafePointer<CChar>?] = []
            pointers.reserveCapacity(arguments.count)
            for argument in arguments {
                let start = buffer.baseAddress! + offset
                argument.bytes.withUnsafeBytes { bytes in
                    if let base = bytes.baseAddress { UnsafeMutableRawPointer(start).copyMemory(from: base, byteCount: bytes.count) }
                }
                pointers.append(UnsafePointer(start))
                offset += argument.bytes.count
            }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeMutableBufferPointer { sizes in body(Int32(arguments.count), argv.baseAddress!, sizes.baseAddress!) }
            }
        }
    }

    /// Copies a hiredis reply object (recursively) into a `RedisReply`.
    private static func convert(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        func bytes() -> [UInt8] {
            guard let text = value.str, value.len > 0 else { return [] }
            return Array(UnsafeRawBufferPointer(start: text, count: value.len))
        }
        switch value.type {
        case REDIS_REPLY_STRING: return .bulk(bytes())
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: return .integer(Int64(value.integer))
        case REDIS_REPLY_ARRAY:
            return .array((0..<value.elements).map { convert(value.element[$0]!) })
        default: return .null
        }
    }
}
