import Foundation
import RiveSyncTransport
import RiveSyncVersion
import Synchronization

/// Counters of the daemon, readable from any thread, printed by `GET /metrics`: per target (the
/// first `maxTargetLabels` targets by name, the rest summed under `target="_other"`), per error
/// code (a fixed set, PROTOCOL.md §13), the advance-duration histogram, build and process facts.
package final class DaemonMetrics: Sendable {
    /// What is counted per target.
    enum TargetCounter: Int, CaseIterable {
        case subscriptions, batches, commandsApplied, commandsRejected

        /// Name, type and help of the metric.
        var exposition: (name: String, type: String, help: String) {
            switch self {
            case .subscriptions: return ("subscriptions", "gauge", "Current subscriptions, by target.")
            case .batches: return ("batches_total", "counter", "Batches produced by advances, by target.")
            case .commandsApplied: return ("commands_applied_total", "counter", "Commands applied by advances, by target.")
            case .commandsRejected: return ("commands_rejected_total", "counter", "Commands rejected when applied or abandoned, by target.")
            }
        }
    }

    /// The label that targets past `maxTargetLabels` share.
    static let otherTarget = "_other"

    /// Each worker's and each dispatcher's counters of every set (`stripe()`).
    private let stripes = Locked<[MetricStripe]>([])
    private let maxTargetLabels: Int
    private let targets = Locked<[String: TargetCounters]>([:])
    private let errors = Locked<[String: Int]>([:])
    /// Advance durations' buckets (upper bounds in seconds), counted in the stripes.
    static let advanceBuckets: [Double] = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1]

    init(maxTargetLabels: Int) { self.maxTargetLabels = maxTargetLabels }

    /// A new stripe of the daemon-wide counters for one worker or dispatcher, summed into
    /// `/metrics` from now on.
    func stripe() -> MetricStripe {
        let made = MetricStripe()
        stripes.withLock { $0.append(made) }
        return made
    }

    /// One label's counters: counted without the lock once found (a worker keeps the
    /// counters of its targets, so a batch hashes no name).
    final class TargetCounters: Sendable {
        private let subscriptions = Atomic<Int>(0)
        private let batches = Atomic<Int>(0)
        private let commandsApplied = Atomic<Int>(0)
        private let commandsRejected = Atomic<Int>(0)

        /// Adds `amount` (negative for a gauge going down) to `counter`.
        func add(_ amount: Int, to counter: TargetCounter) {
            switch counter {
            case .subscriptions: subscriptions.add(amount, ordering: .relaxed)
            case .batches: batches.add(amount, ordering: .relaxed)
            case .commandsApplied: commandsApplied.add(amount, ordering: .relaxed)
            case .commandsRejected: commandsRejected.add(amount, ordering: .relaxed)
            }
        }

        /// Counts one batch, with the commands its advance applied and rejected.
        func addBatch(applied: Int, rejected: Int) {
            batches.add(1, ordering: .relaxed)
            if applied != 0 { commandsApplied.add(applied, ordering: .relaxed) }
            if rejected != 0 { commandsRejected.add(rejected, ordering: .relaxed) }
        }

        /// Whether any counter is not 0.
        var isCounted: Bool { TargetCounter.allCases.contains { value(of: $0) != 0 } }

        func value(of counter: TargetCounter) -> Int {
            switch counter {
            case .subscriptions: subscriptions.load(ordering: .relaxed)
            case .batches: batches.load(ordering: .relaxed)
            case .commandsApplied: commandsApplied.load(ordering: .relaxed)
            case .commandsRejected: commandsRejected.load(ordering: .relaxed)
            }
        }
    }

    /// The counters `target` counts under (its own, or `_other`'s), made on first use.
    func counters(of target: String) -> TargetCounters {
        targets.withLock { all in
            // A target counted before is found once: its label is its name.
            if let found = all[target] { return found }
            let label = label(of: target, in: all)
            if let shared = all[label] { return shared }
            let made = TargetCounters()
            all[label] = made
            return made
        }
    }

    /// The counters a worker counts `target`'s batches under: its own, or, past the label cap,
    /// the worker's `stripe`'s share of `_other` (no two workers write one `_other` per batch).
    func counters(of target: String, apartFrom stripe: MetricStripe) -> TargetCounters {
        targets.withLock { all in
            if let found = all[target] { return found }
            guard label(of: target, in: all) == target else { return stripe.otherTargets }
            let made = TargetCounters()
            all[target] = made
            return made
        }
    }

    /// Adds `amount` (negative for a gauge going down) to `counter` of `target`.
    func add(_ amount: Int, to counter: TargetCounter, of target: String) {
        guard amount != 0 else { return }
        counters(of: target).add(amount, to: counter)
    }

    /// The label `target` counts under: its own name, or `_other` once `maxTargetLabels` targets
    /// have theirs.
    private func label(of target: String, in all: [String: TargetCounters]) -> String {
        all[target] != nil || all.count - (all[Self.otherTarget] == nil ? 0 : 1) < maxTargetLabels ? target : Self.otherTarget
    }

    /// Counts one error reply by its protocol code.
    func recordError(code: String) {
        errors.withLock { $0[code, default: 0] += 1 }
    }

    /// Prometheus text for the daemon's own metrics.
    package func prometheusText() -> String {
        var text = ""
        func header(_ name: String, _ type: String, _ help: String) {
            text += "# HELP rivesync_\(name) \(help)\n# TYPE rivesync_\(name) \(type)\n"
        }
        func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
            let rendered = labels.isEmpty ? "" : "{" + labels.map { "\($0)=\"\(Self.escape($1))\"" }.joined(separator: ",") + "}"
            text += "rivesync_\(name)\(rendered) \(value)\n"
        }
        header("build_info", "gauge", "Always 1; the labels say which release and protocol this daemon is.")
        sample("build_info", [("version", RiveSyncVersion.current), ("protocol", "1")], "1")
        let stripes = self.stripes.withLock { $0 }
        // `_other` sums its shared counters and every worker's share (`MetricStripe.otherTargets`).
        var perTarget = targets.withLock { $0 }.mapValues { [$0] }
        let others = stripes.map(\.otherTargets).filter(\.isCounted)
        if !others.isEmpty { perTarget[Self.otherTarget, default: []] += others }
        let labelled = perTarget.sorted { $0.key < $1.key }
        for counter in TargetCounter.allCases {
            let (name, type, help) = counter.exposition
            header(name, type, help)
            for (target, counters) in labelled {
                sample(name, [("target", target)], "\(counters.reduce(0) { $0 + $1.value(of: counter) })")
            }
        }
        func sum(_ counter: (MetricStripe) -> Int) -> Int { stripes.reduce(0) { $0 + counter($1) } }
        header("commands_queued", "gauge", "Commands waiting for an advance.")
        sample("commands_queued", [], "\(sum { $0.commandsQueued.load(ordering: .relaxed) })")
        header("proposals_waiting", "gauge", "Changes proposed to the change log and not answered yet.")
        sample("proposals_waiting", [], "\(sum { $0.proposalsWaiting.load(ordering: .relaxed) })")
        header("catch_ups_total", "counter", "Catch-up snapshots sent to slow subscribers.")
        sample("catch_ups_total", [], "\(sum { $0.catchUps.load(ordering: .relaxed) })")
        header("requests_total", "counter", "Requests received.")
        sample("requests_total", [], "\(sum { $0.requests.load(ordering: .relaxed) })")
        header("errors_total", "counter", "Error replies sent, by protocol error code.")
        for (code, count) in errors.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            sample("errors_total", [("code", code)], "\(count)")
        }
        header("advance_duration_seconds", "histogram", "Time to apply one advance and build its batches.")
        var counts = [Int](repeating: 0, count: Self.advanceBuckets.count + 1)
        var sumNanoseconds = 0
        for stripe in stripes {
            stripe.advances.withLock { histogram in
                for index in counts.indices { counts[index] += histogram.counts[index] }
                sumNanoseconds += histogram.sumNanoseconds
            }
        }
        var cumulative = 0
        for (i, bound) in Self.advanceBuckets.enumerated() {
            cumulative += counts[i]
            sample("advance_duration_seconds_bucket", [("le", "\(bound)")], "\(cumulative)")
        }
        cumulative += counts[Self.advanceBuckets.count]
        sample("advance_duration_seconds_bucket", [("le", "+Inf")], "\(cumulative)")
        sample("advance_duration_seconds_sum", [], "\(Double(sumNanoseconds) / 1e9)")
        sample("advance_duration_seconds_count", [], "\(cumulative)")
        return text
    }

    /// A label value in the exposition format: backslash, double quote and newline escaped.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(
            of: "\n", with: "\\n")
    }
}
