import RiveSyncTestSupport
import RiveSyncTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A server on several service threads (`Configuration.serviceThreads`): the first thread
/// listens and hands the others their turns of the accepted connections, a session's id names
/// its thread, commands reach each session on its own thread in submit order, and the
/// connection limits hold for the server.
@Suite struct ServiceThreadsTests {
    /// Adopted sockets go to the threads in turn, so six sockets on three threads land two on
    /// each (ids 1, 4 on the first; 2, 5 on the second; 3, 6 on the third). Each is echoed
    /// by its own thread, and one broadcast to all six reaches every one after its echo. The
    /// counters every thread writes on its own are summed.
    @Test func sessionsOnEveryThreadAreServedInSubmitOrder() async throws {
        try await withServer({ $0.serviceThreads = 3 }) { server, handler in
            var sockets: [RawSocket] = []
            for _ in 0..<6 {
                var fds: [Int32] = [0, 0]
                #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
                #expect(server.submit([.adopt(fileDescriptor: fds[0])]))
                let socket = RawSocket(fd: fds[1])
                #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
                sockets.append(socket)
            }
            try await waitUntil("six sessions open") { handler.openedIDs.count == 6 }
            #expect(Set(handler.openedIDs.map { ($0 - 1) % 3 }) == [0, 1, 2])
            for (index, socket) in sockets.enumerated() {
                try socket.send(RawSocket.clientFrame(opcode: 1, payload: Array("echo \(index)".utf8)))
                #expect(try socket.readMessage() == Array("echo \(index)".utf8))
            }
            let ids = handler.openedIDs
            #expect(server.submit([.send(Payload(text: "one"), to: SessionIDs(ids)), .send(Payload(text: "two"), to: SessionIDs(ids))]))
            for socket in sockets {
                #expect(try socket.readMessage() == Array("one".utf8))
                #expect(try socket.readMessage() == Array("two".utf8))
            }
            #expect(server.metrics.connectionsCurrent.load(ordering: .relaxed) == 6)
            // Each thread counts its own messages; the metrics are the sum over the three.
            #expect(server.metrics.messagesIn == 6)
            #expect(server.metrics.bytesIn == (0..<6).reduce(0) { $0 + "echo \($1)".utf8.count })
            try await waitUntil("every write counted") { server.metrics.messagesOut == 6 + 12 }
            #expect(server.metrics.bytesOut == server.metrics.bytesIn + 6 * 6)
            #expect(server.metrics.queuedBytes == 0)
            #expect(server.metrics.queuedMessages == 0)
            #expect(server.totalQueuedBytes == 0)
        }
    }

    /// Connections accepted on the port go to the threads in turn (two of four on each), and
    /// `maxConnections` counts the connections of all threads together: with a budget of 4
    /// the fifth is refused, and a place freed on one thread is taken again.
    @Test func threadsShareThePortAndTheConnectionBudget() async throws {
        try await withServer({
            $0.serviceThreads = 2
            $0.maxConnections = 4
        }) { server, handler in
            let port = try #require(server.port)
            var open: [RawSocket] = []
            for _ in 0..<4 {
                let socket = try RawSocket(port: port)
                #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
                open.append(socket)
            }
            try await waitUntil("four sessions open") { handler.openedIDs.count == 4 }
            #expect(handler.openedIDs.filter { ($0 - 1) % 2 == 1 }.count == 2)
            let fifth = try RawSocket(port: port)
            try fifth.sendUpgradeRequest(subprotocol: nil)
            let reply = String(decoding: fifth.readToEnd(), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 503"), "\(reply)")
            #expect(server.metrics.connectionsRejected.load(ordering: .relaxed) == 1)
            open[0].close()
            try await waitUntil("a place is free again") { server.metrics.connectionsCurrent.load(ordering: .relaxed) == 3 }
            try await waitUntil("the freed place is taken") {
                let socket = try RawSocket(port: port)
                return try socket.upgrade().hasPrefix("HTTP/1.1 101")
            }
        }
    }

    @Test func aThreadCountOutsideOneToSixtyFourIsRefused() {
        var configuration = WebSocketServer.Configuration()
        configuration.serviceThreads = 0
        let server = WebSocketServer(configuration: configuration, handler: RecordingHandler(echo: false))
        #expect(throws: TransportError.self) { try server.start() }
    }
}
