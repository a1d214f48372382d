import RiveSyncTransport
import Synchronization

/// Counters of the daemon, readable from any thread, printed by `GET /metrics`.
final class DaemonMetrics: Sendable {
    let subscriptions = Atomic<Int>(0)
    let batches = Atomic<Int>(0)
    let commandsApplied = Atomic<Int>(0)
    let commandsRejected = Atomic<Int>(0)
    let commandsQueued = Atomic<Int>(0)
    let catchUps = Atomic<Int>(0)
    let requests = Atomic<Int>(0)
    let errors = Atomic<Int>(0)
    /// Advance durations: counts per bucket (upper bounds in seconds below), plus sum in ns.
    static let advanceBuckets: [Double] = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1]
    private let advanceCounts = Locked([Int](repeating: 0, count: advanceBuckets.count + 1))
    private let advanceSumNanoseconds = Atomic<Int>(0)

    func recordAdvance(nanoseconds: UInt64) {
        let seconds = Double(nanoseconds) / 1e9
        let bucket = Self.advanceBuckets.firstIndex { seconds <= $0 } ?? Self.advanceBuckets.count
        advanceCounts.withLock { $0[bucket] += 1 }
        advanceSumNanoseconds.add(Int(nanoseconds), ordering: .relaxed)
    }

    /// Prometheus text for the daemon's own counters.
    func prometheusText() -> String {
        var lines: [String] = []
        func gauge(_ name: String, _ help: String, _ type: String, _ value: Int) {
            lines.append("# HELP rivesync_\(name) \(help)")
            lines.append("# TYPE rivesync_\(name) \(type)")
            lines.append("rivesync_\(name) \(value)")
        }
        gauge("subscriptions", "Current subscriptions.", "gauge", subscriptions.load(ordering: .relaxed))
        gauge("batches_total", "Batches produced by advances.", "counter", batches.load(ordering: .relaxed))
        gauge("commands_applied_total", "Commands applied by advances.", "counter", commandsApplied.load(ordering: .relaxed))
        gauge("commands_rejected_total", "Commands rejected (at request time or when applied).", "counter", commandsRejected.load(ordering: .relaxed))
        gauge("commands_queued", "Commands waiting for an advance.", "gauge", commandsQueued.load(ordering: .relaxed))
        gauge("catch_ups_total", "Catch-up snapshots sent to slow subscribers.", "counter", catchUps.load(ordering: .relaxed))
        gauge("requests_total", "Requests received.", "counter", requests.load(ordering: .relaxed))
        gauge("errors_total", "Error replies sent.", "counter", errors.load(ordering: .relaxed))
        lines.append("# HELP rivesync_advance_duration_seconds Time to apply one advance and build its batches.")
        lines.append("# TYPE rivesync_advance_duration_seconds histogram")
        let counts = advanceCounts.withLock { $0 }
        var cumulative = 0
        for (i, bound) in Self.advanceBuckets.enumerated() {
            cumulative += counts[i]
            lines.append("rivesync_advance_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)")
        }
        cumulative += counts[Self.advanceBuckets.count]
        lines.append("rivesync_advance_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)")
        lines.append("rivesync_advance_duration_seconds_sum \(Double(advanceSumNanoseconds.load(ordering: .relaxed)) / 1e9)")
        lines.append("rivesync_advance_duration_seconds_count \(cumulative)")
        return lines.joined(separator: "\n") + "\n"
    }
}
