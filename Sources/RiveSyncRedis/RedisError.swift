/// What can go wrong talking to Redis. Every case but `server` and `unexpectedReply` means
/// the connection is gone: the caller reconnects (a new `RedisConnection`) before trying
/// again, and cannot know whether a command sent just before the failure was carried out.
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `redis://` URL does not parse (the reason says why).
    case invalidURL(String)
    /// No connection could be made (refused, unreachable, timed out, or the handshake —
    /// `AUTH`, `SELECT` — was refused).
    case connectFailed(String)
    /// Redis did not answer within the connection's timeout.
    case timedOut
    /// The connection broke (reset, closed by Redis, or shut down by `interrupt()`).
    case connectionLost(String)
    /// Redis sent bytes hiredis could not read as its protocol.
    case protocolError(String)
    /// Redis answered with an error reply (`-ERR …`, `-NOSCRIPT …`); the connection stays usable.
    case server(String)
    /// A reply of another shape than the command documents (a typed accessor's complaint).
    case unexpectedReply(String)
    /// `WAIT` ran out of time with fewer replicas holding the writes than required.
    case replicasBehind(acknowledged: Int, required: Int)

    /// True when the connection is unusable after this error.
    public var closesConnection: Bool {
        switch self {
        case .server, .unexpectedReply, .invalidURL, .replicasBehind: false
        case .connectFailed, .timedOut, .connectionLost, .protocolError: true
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let reason): "invalid Redis URL: \(reason)"
        case .connectFailed(let reason): "cannot connect to Redis: \(reason)"
        case .timedOut: "Redis did not answer in time"
        case .connectionLost(let reason): "connection to Redis lost: \(reason)"
        case .protocolError(let reason): "Redis protocol error: \(reason)"
        case .server(let message): "Redis error: \(message)"
        case .unexpectedReply(let reason): "unexpected Redis reply: \(reason)"
        case .replicasBehind(let acknowledged, let required):
            "only \(acknowledged) of the \(required) Redis replicas required acknowledged in time"
        }
    }
}
