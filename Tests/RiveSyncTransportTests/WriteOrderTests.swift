import RiveSyncTestSupport
import RiveSyncTransport
import Testing

@Suite struct WriteOrderTests {
    /// A reply to a message whose fragments came around a ping leaves after the pong lws owes
    /// (RFC 6455 §5.5.2), although it is written through lws' writable handling at once
    /// (`fed_writes_total`) rather than after a writable event of the kernel.
    @Test func pongGoesBeforeTheReplyToWhatFollowedThePing() async throws {
        try await withServer { server, _ in
            let fedBefore = server.metrics.fedWrites
            try expectPongFirstThenTheEchoes(port: try #require(server.port))
            #expect(server.metrics.fedWrites > fedBefore)
        }
    }

    /// The same for a reply sent by work on the hosted timer: its flush, outside every lws
    /// call, runs lws' writable handling itself (`rs_service_writable`) instead of feeding the
    /// socket to the loop, and the pong still leaves first. The timer is due at once, so it
    /// runs in the loop pass where the socket is reported writable for the pong, before it.
    @Test func pongGoesBeforeAReplySentFromTheHostedTimer() async throws {
        let handler = TimerEchoHandler()
        let server = WebSocketServer(configuration: .init(), handler: handler)
        handler.attach(server)
        try server.start()
        defer {
            server.stop()
            handler.detach()
        }
        let fedBefore = server.metrics.fedWrites
        try expectPongFirstThenTheEchoes(port: try #require(server.port))
        #expect(server.metrics.fedWrites > fedBefore)
        #expect(handler.timersSet == 21)
    }

    /// Sends a message whose fragments come around a ping, then 20 plain ones, to a server
    /// that echoes: the pong must come before the first echo, and every echo in order.
    private func expectPongFirstThenTheEchoes(port: Int) throws {
        let socket = try RawSocket.webSocket(port: port)
        defer { socket.close() }
        try socket.send(
            RawSocket.clientFrame(opcode: 1, payload: Array("ab".utf8), fin: false)
                + RawSocket.clientFrame(opcode: 9, payload: Array("p".utf8))
                + RawSocket.clientFrame(opcode: 0, payload: Array("cd".utf8)))
        let pong = try #require(socket.readFrame())
        #expect(pong.opcode == 10 && pong.payload == Array("p".utf8))
        let echo = try #require(socket.readFrame())
        #expect(echo.opcode == 1 && echo.fin && echo.payload == Array("abcd".utf8))
        // A plain message answered the same way, in order.
        for index in 0..<20 {
            try socket.send(text: "m\(index)")
            let frame = try #require(socket.readFrame())
            #expect(frame.opcode == 1 && frame.payload == Array("m\(index)".utf8))
        }
    }
}

/// Echoes every message from a hosted timer due at once, set on the service thread when the
/// message arrives.
private final class TimerEchoHandler: WebSocketServerHandler {
    private let server = Locked<WebSocketServer?>(nil)
    private let scheduled = Locked(0)

    func attach(_ server: WebSocketServer) { self.server.withLock { $0 = server } }
    func detach() { server.withLock { $0 = nil } }

    /// Timers the handler set (each one accepted by the server).
    var timersSet: Int { scheduled.withLock { $0 } }

    func opened(_ id: SessionID, info: SessionInfo) {}

    func received(_ id: SessionID, message: [UInt8], isText: Bool) {
        guard let server = server.withLock({ $0 }) else { return }
        let set = server.schedule(onThread: 0, afterNanoseconds: 0) {
            server.send(Payload(bytes: message, isText: isText), to: [id])
        }
        if set { scheduled.withLock { $0 += 1 } }
    }

    func closed(_ id: SessionID) {}
    func sendQueueOverflow(_ id: SessionID, queuedBytes: Int) {}
}
