/// The WebSocket close codes the daemon and the client use (PROTOCOL.md §12).
public enum CloseCode: UInt16, Sendable, Hashable, CaseIterable {
    /// Normal closure.
    case normal = 1000
    /// The daemon (or the client) is shutting down.
    case goingAway = 1001
    /// Protocol error: unsupported version, a binary frame, bad framing; the client closes
    /// with it on a server message it cannot decode.
    case protocolError = 1002
    /// Data the endpoint does not accept (the client's Foundation transport, on a binary message).
    case unsupportedData = 1003
    /// Invalid UTF-8 in a text frame.
    case invalidPayload = 1007
    /// Policy: an unknown, missing or revoked token, an `Origin` not allowed, no `hello` in
    /// time, a send queue overflow.
    case policyViolation = 1008
    /// A message over `maxMessageBytes`.
    case messageTooBig = 1009
    /// An internal error.
    case internalError = 1011
}

extension CloseCode {
    /// Whether a client that was closed with `code` (nil: no close frame, a lost connection)
    /// may reconnect. A policy violation (an unknown or revoked token), a protocol error,
    /// unacceptable data or invalid UTF-8 would only be repeated (PROTOCOL.md §12); every
    /// other close — a drop, a daemon shutting down, an internal error, a code this client
    /// does not know — may pass.
    public static func allowsReconnect(afterClose code: UInt16?) -> Bool {
        switch code.flatMap(CloseCode.init(rawValue:)) {
        case .protocolError, .unsupportedData, .invalidPayload, .policyViolation: false
        case .normal, .goingAway, .messageTooBig, .internalError, nil: true
        }
    }
}
