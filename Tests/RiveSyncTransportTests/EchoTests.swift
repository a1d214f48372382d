import RiveSyncTestSupport
import RiveSyncTransport
import Testing

@Suite struct EchoTests {
    @Test func textAndBinaryRoundTrip() async throws {
        try await withServer { server, handler in
            let port = try #require(server.port)
            #expect(port > 0)
            try await withClient { client in
                let (connection, stream) = try client.connect(
                    to: "ws://127.0.0.1:\(port)/live?x=1",
                    subprotocol: "rivesync.v1",
                    headers: [("X-Test", "yes")], origin: "http://example")
                connection.send(text: "hello")
                connection.send(bytes: [0, 1, 2, 255])
                var iterator = stream.makeAsyncIterator()
                let first = await iterator.next()
                #expect(first == .opened(subprotocol: "rivesync.v1"))
                #expect(await iterator.next() == .message(Array("hello".utf8), isText: true))
                #expect(await iterator.next() == .message([0, 1, 2, 255], isText: false))
                connection.close(code: 1000, reason: "bye")
                try await waitUntil("server closed") { handler.events.contains { if case .closed = $0 { true } else { false } } }
                let info = try #require(handler.events.compactMap { if case .opened(_, let info) = $0 { info } else { nil } }.first)
                #expect(info.remoteAddress == "127.0.0.1")
                #expect(info.origin == "http://example")
                #expect(info.path == "/live")
            }
        }
    }
}
