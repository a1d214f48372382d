import Synchronization

/// The daemon-wide counters one worker or one dispatcher adds to on every set, kept apart from
/// every other thread's (`DaemonMetrics.stripe()`): two service threads never write one cache
/// line per set. `GET /metrics` sums the stripes.
final class MetricStripe: Sendable {
    /// Commands waiting for an advance (a gauge: a worker adds and takes away its own).
    let commandsQueued = Atomic<Int>(0)
    /// Proposals the change log has not answered yet (a gauge, as `commandsQueued`).
    let proposalsWaiting = Atomic<Int>(0)
    let catchUps = Atomic<Int>(0)
    let requests = Atomic<Int>(0)
    /// Advance durations: counts per bucket of `DaemonMetrics.advanceBuckets`, and the sum in ns.
    let advances = Mutex(AdvanceHistogram())
    /// The batches and commands of this worker's targets past `metrics.maxTargetLabels`:
    /// `/metrics` adds them to `target="_other"`, which every worker would otherwise write.
    let otherTargets = DaemonMetrics.TargetCounters()
    /// Keeps the next stripe's counters off this one's last cache line.
    private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    struct AdvanceHistogram {
        var counts = [Int](repeating: 0, count: DaemonMetrics.advanceBuckets.count + 1)
        var sumNanoseconds = 0
    }

    func recordAdvance(nanoseconds: UInt64) {
        let seconds = Double(nanoseconds) / 1e9
        let bucket = DaemonMetrics.advanceBuckets.firstIndex { seconds <= $0 } ?? DaemonMetrics.advanceBuckets.count
        advances.withLock {
            $0.counts[bucket] += 1
            $0.sumNanoseconds += Int(nanoseconds)
        }
    }
}
