import RiveSyncTestSupport
import Testing

@testable import RiveSyncTransport

/// lws' idle work (rx flow control that became ripe, input it already holds, its own timeouts)
/// runs before the server's loop polls (`rs_idle_driver_t`, `LoopAllocations.serve`), so a
/// wake-up with a socket event polls once: left to lws' idle watcher, the loop polled once more,
/// with a zero timeout, before it ran that work (bench/README.md, "Empty polls and retains").
@Suite struct IdleServiceTests {
    /// The loop found lws' idle watcher, and a message echoed one at a time costs about one
    /// poll of the loop (up to two each, the second empty, with the watcher left to libev).
    @Test func aMessageAnsweredCostsOnePoll() async throws {
        try await withServer { server, _ in
            let socket = try RawSocket(port: try #require(server.port))
            #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
            try socket.send(text: "warm")
            #expect(try socket.readMessage() == Array("warm".utf8))
            let before = try await Self.loopState(server)
            #expect(before.drivesLwsIdle)
            let start = ContinuousClock.now
            let messages = 400
            for n in 0..<messages {
                try socket.send(text: "m\(n)")
                #expect(try socket.readMessage() == Array("m\(n)".utf8))
            }
            let after = try await Self.loopState(server)
            let elapsed = ContinuousClock.now - start
            // Left to libev, the watcher costs about twice as many polls as messages (800). One
            // alone is 401 polls. Beside the other tests on a loaded machine, a message now and
            // then costs a second poll: 414–561 were seen with the echoes taking 0.4–2.7 s, not
            // lws' timeouts (an idle loop there polled 6–13 times a second); CI saw 502, and a
            // bound of a quarter of a poll per message plus the timeouts failed in 2 of 4
            // loaded runs (bench/README.md "Tests under load, session 23"). Three quarters of
            // a poll per message, plus the timeouts, still tells the two apart.
            let timeouts = Int(elapsed.components.seconds + 1) * 15
            let polls = after.polls - before.polls
            #expect(polls < messages * 7 / 4 + timeouts, "\(polls) polls in \(elapsed)")
        }
    }

    /// Whether thread 0's loop runs lws' idle work itself, and how often it has polled.
    static func loopState(_ server: WebSocketServer) async throws -> (drivesLwsIdle: Bool, polls: Int) {
        let state = Locked<(drivesLwsIdle: Bool, polls: Int)?>(nil)
        #expect(
            server.run(onThread: 0) {
                let loop = ServerLoop.current
                state.withLock { $0 = (loop?.drivesLwsIdle ?? false, loop?.loopIterations ?? 0) }
            })
        try await waitUntil("the loop's state was read") { state.withLock { $0 } != nil }
        return try #require(state.withLock { $0 })
    }
}
