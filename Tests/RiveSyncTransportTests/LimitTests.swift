import RiveSyncTestSupport
import RiveSyncTransport
import Testing

@Suite struct LimitTests {
    @Test func oversizeMessageClosesWith1009AndServerStaysUp() async throws {
        try await withServer({ $0.maxMessageBytes = 1000 }) { server, handler in
            let port = try #require(server.port)
            try await withClient { client in
                let (big, bigEvents) = try client.connect(to: "ws://127.0.0.1:\(port)/", subprotocol: "rivesync.v1")
                big.send(bytes: [UInt8](repeating: 7, count: 1001))
                let events = try await collect(bigEvents) { $0.isTerminal }
                #expect(events.last == .closed(code: 1009, reason: "message too big"))
                #expect(server.metrics.messagesTooLarge.load(ordering: .relaxed) == 1)

                let (small, smallEvents) = try client.connect(to: "ws://127.0.0.1:\(port)/", subprotocol: "rivesync.v1")
                small.send(bytes: [UInt8](repeating: 8, count: 1000))
                let echoed = try await collect(smallEvents) { if case .message = $0 { true } else { $0.isTerminal } }
                #expect(echoed.last == .message([UInt8](repeating: 8, count: 1000), isText: false))
                _ = handler
            }
        }
    }

    /// A message split across many frames by the client is reassembled; the limit counts the
    /// whole message, not one frame.
    @Test func fragmentedMessageCountsTowardsLimit() async throws {
        try await withServer({ $0.maxMessageBytes = 100 }) { server, _ in
            let socket = try RawSocket(port: try #require(server.port))
            #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
            try socket.send(RawSocket.clientFrame(opcode: 1, payload: Array(repeating: 0x61, count: 60), fin: false))
            try socket.send(RawSocket.clientFrame(opcode: 0, payload: Array(repeating: 0x62, count: 60), fin: true))
            let frame = try #require(socket.readFrame())
            #expect(frame.opcode == 8)
            #expect(closeCode(frame.payload) == 1009)
        }
    }

    @Test func oneMebibyteRoundTrips() async throws {
        let message = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try await withServer({ $0.maxMessageBytes = 4 << 20 }) { server, handler in
            let port = try #require(server.port)
            try await withClient { client in
                let (connection, stream) = try client.connect(to: "ws://127.0.0.1:\(port)/", subprotocol: "rivesync.v1")
                connection.send(bytes: message)
                let events = try await collect(stream) { if case .message = $0 { true } else { $0.isTerminal } }
                #expect(events.last == .message(message, isText: false))
                #expect(handler.events.contains(.received(1, message, isText: false)))
            }
        }
    }

    @Test func handshakesBeyondMaxConnectionsAreRefused() async throws {
        try await withServer({ $0.maxConnections = 1 }) { server, _ in
            let port = try #require(server.port)
            let first = try RawSocket(port: port)
            #expect(try first.upgrade().hasPrefix("HTTP/1.1 101"))
            let second = try RawSocket(port: port)
            try second.sendUpgradeRequest(subprotocol: nil)
            let reply = String(decoding: second.readToEnd(), as: UTF8.self)
            #expect(!reply.hasPrefix("HTTP/1.1 101"))
            #expect(server.metrics.connectionsRejected.load(ordering: .relaxed) == 1)
        }
    }
}
