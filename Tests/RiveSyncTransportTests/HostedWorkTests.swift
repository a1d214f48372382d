import Dispatch
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Work hosted on a service thread (`WebSocketServer.run(onThread:_:)`, `schedule`): it runs on
/// that thread, after the callback that posted it and in the order posted; its timers fire
/// there in deadline order; and what the thread submits for its own sessions never overtakes
/// what other threads submitted before.
@Suite struct HostedWorkTests {
    /// From the test's thread, work goes to each thread through its inbox and runs there.
    @Test func workPostedFromElsewhereRunsOnItsThread() async throws {
        try await withServer({ $0.serviceThreads = 2 }) { server, _ in
            #expect(server.serviceThreadCount == 2)
            #expect(!server.isServiceThread(0))
            let ran = Locked<[(thread: Int, onIt: Bool, onOther: Bool)]>([])
            for thread in [0, 1, 1, 0] {
                #expect(
                    server.run(onThread: thread) {
                        ran.withLock { $0.append((thread, server.isServiceThread(thread), server.isServiceThread(1 - thread))) }
                    })
            }
            try await waitUntil("four works ran") { ran.withLock { $0.count } == 4 }
            #expect(ran.withLock { $0 }.allSatisfy { $0.onIt && !$0.onOther })
        }
    }

    /// A handler that posts work while it handles a message: the work runs after the handler
    /// returned, in the order posted, and its sends to the session arrive after the handler's.
    @Test func workPostedOnTheThreadRunsAfterTheCallbackInOrder() async throws {
        let handler = HostingHandler()
        try await withHandler(handler) { server in
            let socket = try RawSocket(port: try #require(server.port))
            #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
            try socket.send(text: "post")
            #expect(try socket.readMessage() == Array("handler".utf8))
            #expect(try socket.readMessage() == Array("first".utf8))
            #expect(try socket.readMessage() == Array("second".utf8))
            #expect(handler.trace.withLock { $0 } == ["handler returned", "first", "second"])
        }
    }

    /// Timers set on the thread fire there, in deadline order whatever order they were set in.
    @Test func timersFireOnTheThreadInDeadlineOrder() async throws {
        try await withServer { server, _ in
            let fired = Locked<[(String, Bool)]>([])
            let setOffTheThread = server.schedule(onThread: 0, afterNanoseconds: 0) { fired.withLock { $0.append(("off", false)) } }
            #expect(!setOffTheThread)
            server.run(onThread: 0) {
                for (name, milliseconds) in [("c", 30), ("a", 10), ("b", 20), ("now", 0)] {
                    let set = server.schedule(onThread: 0, afterNanoseconds: UInt64(milliseconds) * 1_000_000) {
                        fired.withLock { $0.append((name, server.isServiceThread(0))) }
                    }
                    precondition(set, "a timer set on its thread")
                }
            }
            try await waitUntil("four timers fired") { fired.withLock { $0.count } == 4 }
            #expect(fired.withLock { $0 }.map(\.0) == ["now", "a", "b", "c"])
            #expect(fired.withLock { $0 }.allSatisfy { $0.1 })
        }
    }

    /// A send submitted from another thread before the service thread submits its own (the
    /// handler waits for it) reaches the socket first, though the thread's own is applied at
    /// once and the other one waits in the inbox.
    @Test func theThreadsOwnSendsDoNotOvertakeEarlierOnes() async throws {
        let handler = HostingHandler()
        try await withSession(handler) { server, socket, id in
            try socket.send(text: "wait")
            handler.waiting.wait()
            #expect(server.submit([.send(Payload(text: "from elsewhere"), to: [id])]))
            handler.proceed.signal()
            #expect(try socket.readMessage() == Array("from elsewhere".utf8))
            #expect(try socket.readMessage() == Array("own".utf8))
        }
    }

    /// On the session's thread, what it just queued counts in `queuedBytes` before the flush
    /// at the end of the callback writes it (the figure other threads read is published by
    /// that flush); once written, every thread reads 0.
    @Test func theThreadReadsWhatItJustQueued() async throws {
        let handler = HostingHandler()
        try await withSession(handler) { server, socket, id in
            try socket.send(text: "measure")
            #expect(try socket.readMessage() == Array("queued".utf8))
            #expect(handler.measured.withLock { $0 } == [6, 6])
            try await waitUntil("the write published") { server.queuedBytes(id) == 0 }
        }
    }
}

/// Posts work and sends from the service thread (see the tests above).
private final class HostingHandler: WebSocketServerHandler {
    let server = Locked<WebSocketServer?>(nil)
    let trace = Locked<[String]>([])
    let session = Locked<SessionID?>(nil)
    let waiting = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    /// `queuedBytes` read on the service thread right after a send and in hosted work after it.
    let measured = Locked<[Int?]>([])

    func opened(_ id: SessionID, info: SessionInfo) { session.withLock { $0 = id } }

    func received(_ id: SessionID, message: [UInt8], isText: Bool) {
        guard let server = server.withLock({ $0 }) else { return }
        switch String(decoding: message, as: UTF8.self) {
        case "post":
            for name in ["first", "second"] {
                server.run(onThread: 0) { [trace] in
                    trace.withLock { $0.append(name) }
                    server.submit([.send(Payload(text: name), to: [id])])
                }
            }
            server.submit([.send(Payload(text: "handler"), to: [id])])
            trace.withLock { $0.append("handler returned") }
        case "wait":
            waiting.signal()
            proceed.wait()
            server.submit([.send(Payload(text: "own"), to: [id])])
        case "measure":
            server.submit([.send(Payload(text: "queued"), to: [id])])
            measured.withLock { $0.append(server.queuedBytes(id)) }
            server.run(onThread: 0) { [measured] in measured.withLock { $0.append(server.queuedBytes(id)) } }
        default:
            break
        }
    }

    func closed(_ id: SessionID) {}
    func sendQueueOverflow(_ id: SessionID, queuedBytes: Int) {}
}

/// Starts a server with `handler` on 127.0.0.1, port 0, runs `body`, and always stops it.
private func withHandler(_ handler: HostingHandler, _ body: (WebSocketServer) async throws -> Void) async throws {
    let server = WebSocketServer(configuration: WebSocketServer.Configuration(), handler: handler)
    handler.server.withLock { $0 = server }
    try server.start()
    defer {
        server.stop()
        handler.server.withLock { $0 = nil }
    }
    try await body(server)
}

/// `withHandler` with one client upgraded and its session open: `body` gets the server, the
/// client's socket and the session's id.
private func withSession(
    _ handler: HostingHandler, _ body: (WebSocketServer, RawSocket, SessionID) async throws -> Void
) async throws {
    try await withHandler(handler) { server in
        let socket = try RawSocket(port: try #require(server.port))
        #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
        try await waitUntil("the session is open") { handler.session.withLock { $0 } != nil }
        try await body(server, socket, try #require(handler.session.withLock { $0 }))
    }
}
