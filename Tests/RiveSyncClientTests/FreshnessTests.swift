import XCTest

@testable import RiveSyncClient

/// `freshness` (PROTOCOL.md §7.1) reaches `Worker.isStateFresh` and `Worker.freshness()`.
final class FreshnessTests: XCTestCase {
    func testFreshnessMessagesSetIsStateFreshAndReachTheStream() async throws {
        let calls = Locked(0)
        let daemon = ScriptedDaemon { _, id in
            let call = calls.withLock { calls in
                calls += 1
                return calls
            }
            let files = #"{"type":"files","id":\#(id),"files":[]}"#
            return [#"{"type":"freshness","fresh":\#(call == 1 ? "false" : "true")}"#, files]
        }
        let worker = try await Worker(url: "ws://scripted", reconnect: false, transport: daemon)
        XCTAssertTrue(worker.isStateFresh, "fresh until a node says otherwise")
        var changes = worker.freshness().makeAsyncIterator()
        let first = await changes.next()
        XCTAssertEqual(first, true, "the stream starts with the current value")

        _ = try await worker.getFileNames()
        XCTAssertFalse(worker.isStateFresh)
        let stale = await changes.next()
        XCTAssertEqual(stale, false)

        _ = try await worker.getFileNames()
        XCTAssertTrue(worker.isStateFresh)
        let fresh = await changes.next()
        XCTAssertEqual(fresh, true)
        XCTAssertEqual(daemon.closeCodes, [], "freshness is no protocol violation")
        await worker.close()
        let ended = await changes.next()
        XCTAssertNil(ended, "the stream ends when the worker closes")
    }
}
