import RiveSyncTestSupport
import RiveSyncTransport
import Testing

@Suite struct BroadcastTests {
    /// Every client must see every broadcast, in submit order, whether messages arrive one per
    /// submit or many per submit (which exercises coalesced writes), and whether a write leaves
    /// at once after a submit or waits for lws' `WRITEABLE` (fragments of large messages).
    @Test func broadcastArrivesInSubmitOrderOnEveryClient() async throws {
        let clientCount = 5
        let messageCount = 400
        try await withServer(echo: false) { server, handler in
            let port = try #require(server.port)
            try await withClient { client in
                var streams: [AsyncStream<ClientEvent>] = []
                for _ in 0..<clientCount {
                    let (_, stream) = try client.connect(to: "ws://127.0.0.1:\(port)/", subprotocol: "rivesync.v1")
                    streams.append(stream)
                }
                try await waitUntil("all sessions open") { handler.openedIDs.count == clientCount }
                let ids = handler.openedIDs
                var batch: [WebSocketServer.Command] = []
                for index in 0..<messageCount {
                    let payload =
                        index % 7 == 0
                        ? Payload(
                            bytes: [UInt8](repeating: UInt8(index % 256), count: 70_000 + index),
                            isText: false)
                        : Payload(text: "m\(index)")
                    if index % 3 == 0 {
                        #expect(server.submit(batch))
                        batch = []
                        #expect(server.send(payload, to: SessionIDs(ids)))
                    } else {
                        batch.append(.send(payload, to: SessionIDs(ids)))
                        if batch.count == 10 {
                            #expect(server.submit(batch))
                            batch = []
                        }
                    }
                }
                server.submit(batch)
                for stream in streams {
                    var received: [ClientEvent] = []
                    for await event in stream {
                        if case .message = event { received.append(event) }
                        if received.count == messageCount || event.isTerminal { break }
                    }
                    let expected: [ClientEvent] = (0..<messageCount).map { index in
                        index % 7 == 0
                            ? .message([UInt8](repeating: UInt8(index % 256), count: 70_000 + index), isText: false)
                            : .message(Array("m\(index)".utf8), isText: true)
                    }
                    #expect(received == expected)
                }
                #expect(server.metrics.messagesOut == clientCount * messageCount)
                #expect(server.metrics.writes > server.metrics.directWrites)
                // Whether a write above left at once depends on how fast the clients read (a
                // loaded machine may send all of them at lws' WRITEABLE). Now every queue is
                // empty and every client idle: one more message leaves at once.
                let directBefore = server.metrics.directWrites
                #expect(server.send(Payload(text: "last"), to: SessionIDs(ids)))
                for stream in streams {
                    var last: ClientEvent?
                    for await event in stream {
                        if case .message = event { last = event }
                        if last != nil || event.isTerminal { break }
                    }
                    #expect(last == .message(Array("last".utf8), isText: true))
                }
                #expect(server.metrics.directWrites > directBefore)
            }
        }
    }
}
