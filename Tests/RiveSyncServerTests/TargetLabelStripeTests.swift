import Testing

@testable import RiveSyncServer

/// Targets past `metrics.maxTargetLabels` count their batches in their worker's share of
/// `_other` (`MetricStripe.otherTargets`), so two workers never write one `_other` per batch,
/// and `/metrics` shows one `_other` summing every share and the shared counters.
@Suite struct TargetLabelStripeTests {
    @Test func eachWorkerCountsItsOwnShareOfOtherAndTheExpositionSumsThem() throws {
        let metrics = DaemonMetrics(maxTargetLabels: 1)
        let first = metrics.stripe()
        let second = metrics.stripe()
        metrics.counters(of: "a", apartFrom: first).addBatch(applied: 1, rejected: 0)
        let b = metrics.counters(of: "b", apartFrom: first)
        let c = metrics.counters(of: "c", apartFrom: second)
        #expect(b === first.otherTargets)
        #expect(c === second.otherTargets)
        #expect(metrics.counters(of: "a", apartFrom: second) === metrics.counters(of: "a", apartFrom: first), "a has its own label")
        b.addBatch(applied: 2, rejected: 1)
        c.addBatch(applied: 3, rejected: 0)
        c.addBatch(applied: 4, rejected: 0)
        metrics.add(1, to: .subscriptions, of: "c")
        let lines = metrics.prometheusText().split(separator: "\n").map(String.init)
        for expected in [
            #"rivesync_batches_total{target="_other"} 3"#, #"rivesync_batches_total{target="a"} 1"#,
            #"rivesync_commands_applied_total{target="_other"} 9"#, #"rivesync_commands_applied_total{target="a"} 1"#,
            #"rivesync_commands_rejected_total{target="_other"} 1"#, #"rivesync_subscriptions{target="_other"} 1"#,
        ] {
            #expect(lines.contains(expected), "\(expected) in:\n\(lines.joined(separator: "\n"))")
        }
        #expect(lines.filter { $0.hasPrefix("rivesync_batches_total{") }.count == 2, "one _other row, one a row")
    }
}
