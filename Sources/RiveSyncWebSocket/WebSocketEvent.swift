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

}
