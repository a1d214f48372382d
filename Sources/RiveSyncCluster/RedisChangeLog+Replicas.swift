import RiveSyncClusterCore
import RiveSyncCore
import RiveSyncRedis

/// `waitForReplicas` (protocol/CLUSTER.md §3.6): the reader hands on only what the replicas
/// hold and nobody voided; a node whose `WAIT` timed out voids its own entries of that read,
/// unless a node confirmed them first, and answers their proposals `storage_failed`
/// (`ClusterCore`'s `replicasBehind` → `void` → `appendFailed(.replicasBehind)`).
extension RedisChangeLog {
    /// The reader's replication step; nil without `waitForReplicas`. Call with `deliver` set.
    func replication() -> RedisStreamReader.Replication? {
        guard settings.waitForReplicas > 0, let deliver else { return nil }
        var replication = RedisStreamReader.Replication(
            replicas: settings.waitForReplicas, timeout: settings.waitTimeout, key: settings.keys.readMark(of: settings.node))
        let keys = settings.keys
        let node = settings.node
        replication.confirmed = { connection, read throws(RedisError) in
            guard let last = read.last else { return read }
            let voided = try Self.ids(
                connection.command(
                    [
                        "EVAL", RedisArgument(ClusterScripts.confirm), 2, RedisArgument(keys.confirmed), RedisArgument(keys.voided),
                        last.id.argument,
                    ]
                        + read.map(\.id.argument)))
            return voided.isEmpty ? read : read.filter { !voided.contains($0.id.description) }
        }
        replication.timedOut = { [self] connection, read throws(RedisError) in
            var own: [(id: RedisStreamID, entry: ClusterEntry)] = []
            for raw in read {
                // An entry that cannot be read is nobody's proposal (every node skips it).
                guard let entry = try? ClusterEntry(raw), entry.node == node, entry.kind != .join else { continue }
                own.append((raw.id, entry))
            }
            guard !own.isEmpty else { return }
            let voided = try Self.ids(
                connection.command(
                    ["EVAL", RedisArgument(ClusterScripts.void), 2, RedisArgument(keys.confirmed), RedisArgument(keys.voided)]
                        + own.map(\.id.argument)))
            let entries = own.filter { voided.contains($0.id.description) }.map(\.entry)
            if !entries.isEmpty { deliver { [self] in answerVoided(entries) } }
        }
        return replication
    }

    /// This node's entries voided after their `WAIT` timed out: each proposal still waiting
    /// is answered `storage_failed` (its change applies on no node).
    private func answerVoided(_ entries: [ClusterEntry]) {
        let failure = LogFailure(AppendFailure.replicasBehind.description)
        for entry in entries where fencing.withLock({ $0.lease.generations[entry.token] != nil }) {
            fencing.withLock { fencing in
                fencing.sent[entry.ticket] = nil
                fencing.sentAt[entry.ticket] = nil
            }
            if case .record(let file, _) = entry.kind, waiting.remove(entry.ticket) != nil {
                metrics.appendFailures.add(1, ordering: .relaxed)
                sink?.appendFailed(file: file, ticket: LogTicket(entry.ticket), failure: failure)
            }
            if let answer = waitingEntries.removeValue(forKey: entry.ticket) {
                metrics.appendFailures.add(1, ordering: .relaxed)
                answer(.failed(failure))
            }
        }
    }

    /// The ids a script returned.
    private static func ids(_ reply: RedisReply) throws(RedisError) -> Set<String> {
        var ids: Set<String> = []
        for element in try reply.array() ?? [] {
            if let id = try element.string() { ids.insert(id) }
        }
        return ids
    }
}
