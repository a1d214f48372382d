/// One WebSocket connection as `RiveSyncClient` uses it: text messages out, a close.
///
/// Implementations queue: `send` and `close` return at once, messages leave in call order,
/// and a failure shows up as the connection's terminal `WebSocketEvent`, never as a throw.
public protocol WebSocketConnection: Sendable {
    /// Queues a text message.
    func send(text: String)

    /// Closes the connection with `code` after the queued messages (the terminal event follows).
    func close(code: UInt16, reason: String)
}

/// Opens `WebSocketConnection`s: the seam between the client and a WebSocket library.
///
/// `RiveSyncClient`'s `LibWebSocketsTransport` (libwebsockets, the default on Linux) and
/// `RiveSyncFoundationWebSocket` (`URLSessionWebSocketTask`, the default on Apple platforms)
/// implement it; a test can pass its own.
public protocol WebSocketTransport: Sendable {
    /// Starts connecting to `url` (`ws://` or `wss://`) offering `subprotocol`.
    ///
    /// - Returns: the connection, usable at once (sends wait until it opens), and its events:
    ///   at most one `.opened`, then messages, then exactly one terminal event, after which the
    ///   stream finishes.
    /// - Throws: `WebSocketTransportError` when the connection cannot even be started (a
    ///   malformed URL, a transport that was shut down).
    func connect(to url: String, subprotocol: String) throws -> (connection: any WebSocketConnection, events: AsyncStream<WebSocketEvent>)
}

/// Why a transport could not start a connection.
public enum WebSocketTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a `ws://` or `wss://` URL.
    case invalidURL(String)
    /// The transport could not start (its reason).
    case unavailable(String)

    public var description: String {
        switch self {
        case .invalidURL(let url): "not a ws:// or wss:// URL: \(url)"
        case .unavailable(let reason): "WebSocket transport unavailable: \(reason)"
        }
    }
}
