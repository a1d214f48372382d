import RiveSyncCore
import Testing

/// Advance scheduling and back-pressure as pure decisions on a mock clock.
@Suite struct AdvancePacingTests {
    static let second: UInt64 = 1_000_000_000

    @Test func anIdleTargetAdvancesAtOnce() {
        #expect(AdvancePacing.due(now: 10 * Self.second, lastAdvance: 9 * Self.second, rate: 60) == 10 * Self.second)
    }

    @Test func aBusyTargetWaitsForTheEndOfItsInterval() {
        let last = 10 * Self.second
        #expect(AdvancePacing.due(now: last + 1_000_000, lastAdvance: last, rate: 60) == last + 16_666_666)
        #expect(AdvancePacing.due(now: last + 1_000_000, lastAdvance: last, rate: 2) == last + Self.second / 2)
    }

    @Test func commandsArrivingContinuouslyGetAtMostRateAdvancesASecond() {
        // A command every millisecond for a second at rate 60: one advance per due time.
        var now: UInt64 = 0
        var last: UInt64 = 0
        var due: UInt64?
        var advances = 0
        while now < Self.second {
            if let at = due, now >= at {
                advances += 1
                last = now
                due = nil
            }
            if due == nil { due = AdvancePacing.due(now: now, lastAdvance: last, rate: 60) }
            now += 1_000_000
        }
        #expect(advances <= 60 && advances >= 58, "\(advances) advances")
    }

    @Test func aSubscriberLagsOverHalfItsQueueAndCatchesUpUnderAnEighth() {
        #expect(!Backlog.lags(queuedBytes: 512, maxSendQueueBytes: 1024))
        #expect(Backlog.lags(queuedBytes: 513, maxSendQueueBytes: 1024))
        #expect(!Backlog.caughtUp(queuedBytes: 129, maxSendQueueBytes: 1024))
        #expect(Backlog.caughtUp(queuedBytes: 128, maxSendQueueBytes: 1024))
    }
}
