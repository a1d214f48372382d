import RiveSyncTransport

/// Test-only session handler behind `rivesyncd --test-echo` (off by default): sends every
/// message back to its sender unchanged (text as text, binary as binary) and speaks no protocol.
/// It exists so Autobahn|Testsuite exercises the daemon's real listener and transport limits.
final class EchoHandler: WebSocketServerHandler {
    let context: ServerContext

    init(context: ServerContext) { self.context = context }

    func opened(_ id: SessionID, info: SessionInfo) {}
    /// Echoes and reports the message handled in one submit (back-pressure, `maxPendingRequests`).
    func received(_ id: SessionID, message: [UInt8], isText: Bool) {
        context.submit([.send(Payload(bytes: message, isText: isText), to: [id]), .handled(id)])
    }
    func closed(_ id: SessionID) {}
    /// The transport closes the session (policy `.close(1008)`).
    func sendQueueOverflow(_ id: SessionID, queuedBytes: Int) {}
}
