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
