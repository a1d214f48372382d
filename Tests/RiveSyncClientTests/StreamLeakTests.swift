import XCTest

@testable import RiveSyncClient

/// A stream whose consumer ends early — breaks out of `for await`, or is cancelled before the
/// stream's listener is even registered — leaves no listener behind.
final class StreamLeakTests: ClientTestCase {
    /// Waits (generously) until the session holds `count` listeners; fails with the last count.
    private func expectListeners(_ count: Int, in worker: Worker, _ why: String) async throws {
        var seen = -1
        for _ in 0..<400 {
            seen = await worker.session.listenerCount
            if seen == count { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        XCTFail("\(why): \(seen) listeners, expected \(count)")
    }

    func testConsumersThatBreakOutLeaveNoListener() async throws {
        try startDemo()
        let worker = try await connect()
        let main = try await worker.stateMachine(named: "character").mainInstance()
        let mood = NumberProperty(path: "mood")
        let target = try await worker.target(named: "character")
        for _ in 0..<20 {
            try await within {
                for try await _ in main.valueStream(of: mood, includingCurrent: true) { break }
                for try await _ in target.batches(includingCurrent: true) { break }
            }
        }
        try await expectListeners(0, in: worker, "after 40 consumers broke out")
    }

    func testConsumersCancelledBeforeTheirListenerIsRegisteredLeaveNone() async throws {
        try startDemo()
        let worker = try await connect()
        let main = try await worker.stateMachine(named: "character").mainInstance()
        let mood = NumberProperty(path: "mood")
        let target = try await worker.target(named: "character")
        var consumers: [Task<Void, any Error>] = []
        for _ in 0..<20 {
            let values = main.valueStream(of: mood)
            let batches = target.batches()
            consumers.append(Task { for try await _ in values {} })
            consumers.append(Task { for try await _ in batches {} })
        }
        for consumer in consumers { consumer.cancel() }
        for consumer in consumers { _ = await consumer.result }
        try await expectListeners(0, in: worker, "after 40 consumers were cancelled at once")
        // A live stream is still told: the listener count is not zero by accident.
        let live = main.valueStream(of: mood, includingCurrent: true)
        let first = try await within { () -> Float? in
            for try await value in live { return value }
            return nil
        }
        XCTAssertNotNil(first)
    }
}
