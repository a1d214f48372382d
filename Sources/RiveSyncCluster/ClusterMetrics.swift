import Synchronization

/// What a node's cluster log counts, for `/metrics` (protocol/CLUSTER.md §4.3).
public final class ClusterMetrics: Sendable {
    let applied = Atomic<Int>(0)
    let appended = Atomic<Int>(0)
    let appendFailures = Atomic<Int>(0)
    let redisErrors = Atomic<Int>(0)
    let leaseLosses = Atomic<Int>(0)
    /// Append to apply of this node's own entries, summed, and how many.
    let lagNanoseconds = Atomic<UInt64>(0)
    let lagCount = Atomic<Int>(0)
    /// The stream's length when the lease was last renewed.
    let streamEntries = Atomic<Int>(0)
    let reachable = Atomic<Int>(1)
    /// Appends sent on the append connection and not answered yet.
    let appendsInFlight = Atomic<Int>(0)

    init() {}

    /// One series of the exposition: its name (after `rivesync_cluster_`), type, help and value.
    private typealias Series = (name: String, type: String, help: String, value: @Sendable (ClusterMetrics) -> String)

    /// Every series, in exposition order.
    private static let series: [Series] = [
        (
            "reachable", "gauge", "1 while this node reads the cluster log from Redis, 0 while it is cut off.",
            { "\($0.reachable.load(ordering: .relaxed))" }
        ),
        ("entries_applied_total", "counter", "Entries of the cluster log this node applied.", { "\($0.applied.load(ordering: .relaxed))" }),
        (
            "entries_appended_total", "counter", "Entries this node appended to the cluster log.",
            { "\($0.appended.load(ordering: .relaxed))" }
        ),
        (
            "append_failures_total", "counter", "Proposals of this node answered storage_failed (Redis unreachable, fenced, lease ended).",
            { "\($0.appendFailures.load(ordering: .relaxed))" }
        ),
        (
            "redis_errors_total", "counter", "Failed Redis commands and connections of this node.",
            { "\($0.redisErrors.load(ordering: .relaxed))" }
        ),
        (
            "lease_losses_total", "counter", "Times this node's lease ended before it was renewed.",
            { "\($0.leaseLosses.load(ordering: .relaxed))" }
        ),
        (
            "log_lag_seconds_sum", "counter", "Time from appending an entry to applying it, summed over this node's own entries.",
            { "\(Double($0.lagNanoseconds.load(ordering: .relaxed)) / 1e9)" }
        ),
        (
            "log_lag_seconds_count", "counter", "This node's own entries whose lag is in log_lag_seconds_sum.",
            { "\($0.lagCount.load(ordering: .relaxed))" }
        ),
        (
            "appends_in_flight", "gauge", "Appends sent to Redis and not answered yet (at most 64: the append window).",
            { "\($0.appendsInFlight.load(ordering: .relaxed))" }
        ),
        (
            "stream_entries", "gauge", "Entries in the cluster log stream (XLEN, read at each lease renewal).",
            { "\($0.streamEntries.load(ordering: .relaxed))" }
        ),
    ]

    /// The Prometheus text exposition of the counters.
    public func prometheusText() -> String { Self.prometheusText([(nil, self)]) }

    /// The counters of several shards' logs (protocol/CLUSTER.md §6), each series labelled
    /// `shard` (unlabelled for a nil shard), each metric's help and type once.
    public static func prometheusText(_ shards: [(shard: String?, metrics: ClusterMetrics)]) -> String {
        var text = ""
        for series in Self.series {
            text += "# HELP rivesync_cluster_\(series.name) \(series.help)\n# TYPE rivesync_cluster_\(series.name) \(series.type)\n"
            for (shard, metrics) in shards {
                text += "rivesync_cluster_\(series.name)\(shard.map { "{shard=\"\($0)\"}" } ?? "") \(series.value(metrics))\n"
            }
        }
        return text
    }
}
