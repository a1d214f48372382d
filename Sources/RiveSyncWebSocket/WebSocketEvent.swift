/// Something that happened on a `WebSocketConnection`.
///
/// A connection produces at most one `.opened`, then messages, and ends with exactly one
/// terminal event: `.closed` if it was open, `.failed` if it never opened.
public enum WebSocketEvent: Sendable, Hashable {
    /// The handshake completed; `subprotocol` is what the server selected.
    case opened(subprotocol: String?)
    /// A whole text message arrived (its UTF-8 bytes).
    case message([UInt8])
    /// The connection ended. `code` is the peer's close code, nil when none was received
    /// (abnormal closure, 1006).
    case closed(code: UInt16?, reason: String)
    /// The connection could not be established.
    case failed(String)

    /// True for `.closed` and `.failed`.
    public var isTerminal: Bool {
        switch self {
        case .closed, .failed: true
        case .opened, .message: false
        }
    }

    /// Whether reconnecting after this terminal event can help. A close for a policy
    /// violation (1008: unknown or revoked token), a protocol error (1002), unacceptable data
    /// (1003) or invalid UTF-8 (1007) would only be repeated (PROTOCOL.md §12); everything
    /// else — a drop, a daemon shutting down (1001), an internal error (1011), a refused
    /// handshake — may pass.
    public var allowsReconnect: Bool {
        switch self {
        case .closed(let code?, _): ![1002, 1003, 1007, 1008].contains(code)
        case .closed(nil, _), .failed: true
        case .opened, .message: false
        }
    }
}
