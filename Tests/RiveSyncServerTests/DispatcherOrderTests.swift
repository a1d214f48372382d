import RiveSyncCore
import RiveSyncInProcess
import RiveSyncProtocol
import Testing

@testable import RiveSyncServer

/// The dispatcher's order: what is posted to it from other threads (timers, the directory's
/// changes, the workers' answers) runs before the next message it receives, though its queue
/// has not run it yet; and the requests it routes leave a worker's `RoutedRequests` in the
/// order they came.
@Suite struct DispatcherOrderTests {
    /// A `closeAll` posted while the dispatcher's queue is held back runs before the `hello`
    /// received after it: the connection is closed, and the `hello` gets no `welcome`.
    @Test func anEventPostedBeforeAMessageRunsBeforeIt() throws {
        let inProcess = try InProcessDaemon()
        let dispatcher = inProcess.daemon.dispatcher.all[0]
        let client = inProcess.connect()
        dispatcher.queue.suspend()
        defer { dispatcher.queue.resume() }
        dispatcher.post(.closeAll(code: .goingAway, reason: "test"))
        client.sendRaw(Array(#"{"type":"hello","id":1,"protocol":[1]}"#.utf8))
        #expect(client.closeCode == CloseCode.goingAway.rawValue)
        #expect(client.buffered.isEmpty)
    }

    /// Appends and removals interleaved so that the ring wraps before it grows and grows while
    /// wrapped: every event comes out once, in the order it went in.
    @Test func routedRequestsLeaveInTheOrderTheyCame() {
        var routed = RoutedRequests()
        var added: UInt64 = 0
        var removed: [UInt64] = []
        func removeFirst() -> Bool {
            guard let event = routed.removeFirst() else { return false }
            if case .closed(let connection) = event { removed.append(connection.rawValue) }
            return true
        }
        for round in 0..<8 {
            for _ in 0..<(round + 3) {
                routed.append(.closed(ConnectionID(added)))
                added += 1
            }
            for _ in 0..<3 { #expect(removeFirst()) }
        }
        #expect(routed.count == Int(added) - 24)
        while removeFirst() {}
        #expect(removed == Array(0..<added))
        #expect(routed.count == 0)
        #expect(routed.removeFirst() == nil)
    }
}
