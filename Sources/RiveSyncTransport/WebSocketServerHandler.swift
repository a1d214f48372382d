/// Identifies one WebSocket session of a `WebSocketServer`. Never reused within a server.
public typealias SessionID = UInt64

/// What the server knows about a session when it opens.
public struct SessionInfo: Sendable, Hashable {
    /// Peer IP address as text (e.g. "127.0.0.1").
    public let remoteAddress: String
    /// The `Origin` request header, or nil when absent.
    public let origin: String?
    /// The request path of the upgrade (e.g. "/ws"), without query string.
    public let path: String

    /// A session's details as the transport reads them (an in-process daemon's tests make
    /// their own).
    package init(remoteAddress: String, origin: String?, path: String) {
        self.remoteAddress = remoteAddress
        self.origin = origin
        self.path = path
    }
}

/// Receives session events of a `WebSocketServer`.
///
/// Every method is called **on the service thread** and must return quickly without blocking:
/// hand work off to other threads (a queue, an `AsyncStream` continuation) and submit
/// replies through the server's thread-safe API. Calling the server's submit API from here is
/// allowed; calling `stop()` from here is not.
public protocol WebSocketServerHandler: Sendable {
    /// A WebSocket handshake completed.
    func opened(_ id: SessionID, info: SessionInfo)
    /// A whole message arrived (fragments already reassembled, size limit already enforced).
    func received(_ id: SessionID, message: [UInt8], isText: Bool)
    /// The session ended, for whatever reason (peer close, error, limit, `stop()`, or context
    /// destruction). No more events follow for `id`, and later sends to it are ignored.
    func closed(_ id: SessionID)
    /// Sending a message would have pushed the session's queue past
    /// `Configuration.maxQueuedBytesPerSession`. That message was dropped; what happens next is
    /// set by `Configuration.overflowPolicy`. Called once per overflow episode.
    func sendQueueOverflow(_ id: SessionID, queuedBytes: Int)
}

/// Whether an HTTP request for a protected resource (`GET /metrics`) is answered.
public enum HTTPAccess: Sendable {
    case allowed
    /// No credentials, or credentials that are not valid: 401 with `WWW-Authenticate: Bearer`.
    case unauthorized
    /// Valid credentials without the right: 403.
    case forbidden
}
