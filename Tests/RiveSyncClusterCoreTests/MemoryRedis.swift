import RiveSyncClusterCore

/// A clock the test moves by hand.
final class MockClock {
    var now = ClusterInstant(nanoseconds: 1_000_000_000)

    func advance(_ duration: Duration) { now = now.adding(duration) }
}

/// Redis as the cluster uses it, in memory: lease keys expiring by the mock clock, the fencing
/// append script, one stream with trims, one replica replicating by hand (so `WAIT` can time
/// out and a failover can lose what it lacks), and the void/confirm pair of §3.6. Every
/// command is recorded in `calls`.
final class MemoryRedis {
    let clock: MockClock
    private(set) var log: [LogEntry] = []
    private(set) var trims: [LogPosition] = []
    var epoch = "epoch-1"
    /// True while Redis answers nothing.
    var down = false
    /// Entries the replica holds (a prefix of `log`).
    private(set) var replicated = 0
    /// A frozen replica (`SIGSTOP`) replicates nothing.
    var replicaFrozen = false
    /// Entries voided after `WAIT` timed out, and the highest entry any node confirmed.
    private(set) var voided: Set<LogPosition> = []
    private(set) var confirmed = LogPosition.start
    private(set) var calls: [String] = []
    private var leases: [String: (token: String, expires: ClusterInstant)] = [:]
    private var lastMilliseconds: UInt64 = 0
    private var tokens = 0

    init(clock: MockClock) {
        self.clock = clock
    }

    /// A fresh token, as the shell draws one.
    func newToken() -> String {
        tokens += 1
        return "token-\(tokens)"
    }

    /// `SET <lease> token PX lease`.
    func setLease(of node: String, _ token: String, lease: Duration) {
        calls.append("SET lease \(node) \(token)")
        leases[node] = (token, clock.now.adding(lease))
    }

    /// `GET <lease>`, nil once it expired.
    func lease(of node: String) -> String? {
        guard let held = leases[node], clock.now < held.expires else { return nil }
        return held.token
    }

    /// The renewal script: 1 while the key holds `token`.
    func renew(_ node: String, _ token: String, lease: Duration) -> Bool {
        calls.append("EVAL renew \(node) \(token)")
        guard self.lease(of: node) == token else { return false }
        leases[node] = (token, clock.now.adding(lease))
        return true
    }

    /// The fencing append script: the entry's position, or nil for `FENCED`.
    func append(_ kind: LogEntry.Kind, node: String, token: String, ticket: UInt64) -> LogPosition? {
        calls.append("EVAL append \(node) \(token) \(ticket)")
        guard lease(of: node) == token else { return nil }
        lastMilliseconds += 1
        let position = LogPosition(lastMilliseconds, 0)
        log.append(LogEntry(position: position, kind: kind, node: node, token: token, ticket: ticket))
        if !replicaFrozen { replicated = log.count }
        return position
    }

    /// Entries after `after`, at most `count`.
    func read(after: LogPosition, count: Int = 512) -> [LogEntry] {
        calls.append("XREAD \(after)")
        return Array(log.filter { $0.position > after }.prefix(count))
    }

    /// The check script's inputs, decided by `LogCheck`.
    func check(epoch nodeEpoch: String, after: LogPosition, first: LogPosition?) -> LogCheck.Verdict {
        calls.append("EVAL check \(after)")
        return LogCheck.verdict(
            epochMatches: epoch == nodeEpoch, after: after, first: first, trims: trims,
            afterIsThere: log.contains { $0.position == after })
    }

    /// `WAIT 1`: true when the replica holds everything up to `last`.
    func replicaHolds(_ last: LogPosition) -> Bool {
        calls.append("WAIT \(last)")
        return log.prefix(replicated).contains { $0.position >= last }
    }

    /// The confirm script after a `WAIT` that succeeded: marks `entries` confirmed and returns
    /// them with the voided ones flagged.
    func confirm(_ entries: [LogEntry]) -> [LogEntry] {
        calls.append("EVAL confirm")
        if let last = entries.last?.position, last > confirmed { confirmed = last }
        return entries.map { entry in
            var entry = entry
            entry.voided = voided.contains(entry.position)
            return entry
        }
    }

    /// The void script: voids `position` unless a node confirmed it already.
    func void(_ position: LogPosition) -> Bool {
        calls.append("EVAL void \(position)")
        guard position > confirmed else { return false }
        voided.insert(position)
        return true
    }

    /// The replica catches up (unless frozen).
    func replicate() {
        if !replicaFrozen { replicated = log.count }
    }

    /// `XTRIM MINID cut` (keeping `cut`), recording the highest entry deleted.
    func trim(below cut: LogPosition) {
        calls.append("XTRIM \(cut)")
        guard let deleted = log.last(where: { $0.position < cut })?.position else { return }
        log.removeAll { $0.position < cut }
        trims.insert(deleted, at: 0)
    }

    /// The primary dies and its replica is promoted: the log is what the replica held.
    func failover() {
        log = Array(log.prefix(replicated))
    }
}
