import XCTest

@testable import RiveSyncClient

/// A stream whose consumer ends early — breaks out of `for await`, or is cancelled before the
/// stream's listener is even registered — leaves no listener behind.
final class StreamLeakTests: ClientTestCase {
    /// Waits (generously) until no stream is still registering its listener and the session
    /// holds `count` listeners (removals run in tasks of their own); fails with the last count.
    private func expectListeners(_ count: Int, in worker: Worker, _ why: String) async throws {
        var seen = -1
        for _ in 0..<400 {
            let registering = worker.session.registrationsInFlight.withLock { $0 }
            seen = await worker.session.listenerCount
            if registering == 0, seen == count { return }
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

    /// The target is not subscribed yet, so every registration waits for the subscribe's
    /// reply from the daemon: the consumers end first.
    func testConsumersCancelledBeforeTheirListenerIsRegisteredLeaveNone() async throws {
        try startDemo()
        let worker = try await connect()
        let target = try await worker.target(named: "character")
        var consumers: [Task<Void, any Error>] = []
        for _ in 0..<20 {
            let values = target.valueStream(at: "mood")
            let batches = target.batches()
            consumers.append(Task { for try await _ in values {} })
            consumers.append(Task { for try await _ in batches {} })
        }
        for consumer in consumers { consumer.cancel() }
        for consumer in consumers { _ = await consumer.result }
        try await expectListeners(0, in: worker, "after 40 consumers were cancelled before their streams registered")
        // A live stream is still told: the count is not zero because nothing registers.
        let live = target.valueStream(at: "mood", includingCurrent: true)
        let first = try await within { () -> DynamicValue? in
            for try await value in live { return value }
            return nil
        }
        XCTAssertNotNil(first)
    }
}
