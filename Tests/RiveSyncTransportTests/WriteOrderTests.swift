import RiveSyncTestSupport
import RiveSyncTransport
import Testing

@Suite struct WriteOrderTests {
    /// A reply to a message whose fragments came around a ping leaves after the pong lws owes
    /// (RFC 6455 §5.5.2), although it is written through lws' writable handling at once
    /// (`fed_writes_total`) rather than after a writable event of the kernel.
    @Test func pongGoesBeforeTheReplyToWhatFollowedThePing() async throws {
        try await withServer { server, _ in
            let socket = try RawSocket.webSocket(port: try #require(server.port))
            defer { socket.close() }
            let fedBefore = server.metrics.fedWrites.load(ordering: .relaxed)
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
            #expect(server.metrics.fedWrites.load(ordering: .relaxed) > fedBefore)
        }
    }
}
