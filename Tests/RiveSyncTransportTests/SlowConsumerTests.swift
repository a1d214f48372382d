import RiveSyncTestSupport
import RiveSyncTransport
import Testing

@Suite struct SlowConsumerTests {
    static let chunk = Payload(bytes: [UInt8](repeating: 0x41, count: 64 * 1024), isText: false)

    /// Opens a raw session that never reads and sends to it, one chunk at a time, until the
    /// server reports an overflow. With `untilStuck`, an overflow that happened while the
    /// socket could still drain the queue (a burst) is cleared with an empty `replaceQueue`
    /// and sending goes on until the queue is really stuck behind a full socket.
    static func overflowingSession(_ server: WebSocketServer, _ handler: RecordingHandler, untilStuck: Bool) async throws
        -> (RawSocket, SessionID)
    {
        let socket = try RawSocket(port: try #require(server.port))
        #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
        try await waitUntil("session open") { handler.openedIDs.count == 1 }
        let id = handler.openedIDs[0]
        var overflows = 0
        for _ in 0..<20000 {
            let seen = handler.events.filter { $0 == .overflow(id) }.count
            if seen > overflows {
                overflows = seen
                if !untilStuck || (server.queuedBytes(id) ?? 0) > 0 { return (socket, id) }
                server.submit([.replaceQueue(id, with: [])])
            }
            server.send(chunk, to: [id])
            try await Task.sleep(nanoseconds: 500_000)
        }
        throw TimedOut(what: "send queue overflow")
    }

    @Test func dropUntilReplacedThenCatchUp() async throws {
        try await withServer(
            {
                $0.maxQueuedBytesPerSession = 256 * 1024
                $0.overflowPolicy = .dropUntilReplaced
                // The raw socket never sends: on a loaded machine the overflow loop can outlast
                // the 30 s ping interval, and the ping lws then sends is a frame the loop below
                // would take for a wrong data frame. Pings are not what this test is about.
                $0.pingIntervalSeconds = 0
            }, echo: false
        ) { server, handler in
            let (socket, id) = try await Self.overflowingSession(server, handler, untilStuck: true)
            let queued = try #require(server.queuedBytes(id))
            #expect(queued > 0 && queued <= 256 * 1024)
            #expect(server.submit([.replaceQueue(id, with: [Payload(text: "catch-up")]), .send(Payload(text: "after"), to: [id])]))
            var texts: [String] = []
            while texts.count < 2, let frame = socket.readFrame() {
                if frame.opcode == 1 {
                    texts.append(String(decoding: frame.payload, as: UTF8.self))
                } else {
                    #expect(frame.opcode == 2 && frame.payload.count == 64 * 1024 && frame.fin)
                }
            }
            #expect(texts == ["catch-up", "after"])
            try await waitUntil("queue drained") { server.queuedBytes(id) == 0 }
            #expect(server.metrics.queueOverflows.load(ordering: .relaxed) >= 1)
        }
    }

    @Test func closePolicyClosesWithItsCode() async throws {
        try await withServer(
            {
                $0.maxQueuedBytesPerSession = 256 * 1024
                $0.overflowPolicy = .close(code: 1008)
            }, echo: false
        ) { server, handler in
            let (socket, id) = try await Self.overflowingSession(server, handler, untilStuck: false)
            var last: (opcode: UInt8, fin: Bool, payload: [UInt8])?
            while let frame = socket.readFrame() {
                last = frame
                if frame.opcode == 8 { break }
            }
            #expect(last?.opcode == 8)
            #expect(closeCode(last?.payload ?? []) == 1008)
            try await waitUntil("session closed") { handler.events.contains(.closed(id)) }
            #expect(server.queuedBytes(id) == nil)
        }
    }
}

/// `queuedBytes` counts a send from the moment it is submitted, not from when the service
/// thread gets to it: a slow-consumer policy deciding from a reading taken right after its
/// own sends sees them (the daemon once queued seven batches past its soft limit that way).
@Suite struct InTransitTests {
    @Test func aSubmittedSendCountsAtOnce() async throws {
        try await withServer(
            {
                $0.socketSendBufferBytes = 64 << 10
                $0.maxQueuedBytesPerSession = 16 << 20
            }, echo: false
        ) { server, handler in
            let socket = try RawSocket(port: try #require(server.port), receiveBufferBytes: 4096)
            #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
            try await waitUntil("session open") { handler.openedIDs.count == 1 }
            let id = handler.openedIDs[0]
            let chunks = 40
            #expect(server.submit(Array(repeating: .send(SlowConsumerTests.chunk, to: [id]), count: chunks)))
            let queued = try #require(server.queuedBytes(id))
            let total = server.totalQueuedBytes
            let kernel = 1 << 20  // at most what both sockets can hold: the sends the loop wrote already
            #expect(queued >= chunks * SlowConsumerTests.chunk.count - kernel, "queued \(queued) right after the submit")
            #expect(total >= chunks * SlowConsumerTests.chunk.count - kernel, "all sessions: \(total) right after the submit")
            withExtendedLifetime(socket) {}
        }
    }
}

/// What the server's kernel side may hold for a peer that reads slowly: `socketSendBufferBytes`,
/// not megabytes of autotuned buffers, so that the send queue (and its overflow policy) sees the
/// backlog. The reader fixes its own receive buffer, and what waits in it is counted apart: on
/// loopback both ends share one kernel, and the reader's buffer is the reader's choice.
@Suite struct SocketSendBufferTests {
    @Test func aSlowReaderBacklogStaysInTheSendQueue() async throws {
        let total = 8 << 20
        try await withServer(
            {
                $0.socketSendBufferBytes = 64 << 10
                $0.maxQueuedBytesPerSession = 64 << 20
            }, echo: false
        ) { server, handler in
            let socket = try RawSocket(port: try #require(server.port), receiveBufferBytes: 64 << 10)
            #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
            try await waitUntil("session open") { handler.openedIDs.count == 1 }
            let id = handler.openedIDs[0]
            var read = 0
            for _ in 0..<(total / SlowConsumerTests.chunk.count) {
                server.send(SlowConsumerTests.chunk, to: [id])
                try await Task.sleep(nanoseconds: 2_000_000)
                read += socket.readAvailable(upTo: 16 << 10)
            }
            try await Task.sleep(nanoseconds: 100_000_000)
            let queued = try #require(server.queuedBytes(id))
            let unread = socket.unreadBytes
            let sentNotReceived = total - queued - read - unread
            #expect(
                sentNotReceived < 1 << 20,
                "the server's socket holds \(sentNotReceived) bytes (read \(read), unread \(unread), queued \(queued))")
        }
    }
}
