import RiveSyncClusterCore
import RiveSyncCore
import RiveSyncRedis

/// The stream reader's steps on its own connection, after each read: the check (CLUSTER.md
/// §2.7) and, under `waitForReplicas`, the `WAIT` (§3.6). What they find goes to the core as
/// an event: `checkFailed`, or `replicasBehind` (the core asks to void this node's entries of
/// that read).
extension RedisChangeLog {
    /// The reader's settings, its check and replication step.
    func readerSettings() -> RedisStreamReader.Settings {
        var readerSettings = RedisStreamReader.Settings()
        readerSettings.timeout = settings.timeout
        readerSettings.block = .milliseconds(500)
        readerSettings.name = Self.readerName(settings.node)
        readerSettings.replication = replication()
        readerSettings.check = { [self] connection, after, read throws(RedisError) in
            let verdict = try connection.command([
                "EVAL", RedisArgument(ClusterScripts.check), 3, RedisArgument(settings.keys.epoch), RedisArgument(settings.keys.log),
                RedisArgument(settings.keys.trims), RedisArgument(epoch), after.argument,
                RedisArgument(read.first.map(\.id.description) ?? ""),
            ]).string()
            guard verdict != "ok" else { return true }
            metrics.redisErrors.add(1, ordering: .relaxed)
            let loss: LogLoss = verdict == "trimmed" ? .behindTrim : .wentBack
            deliver { [self] in handle(.checkFailed(loss)) }
            return false
        }
        return readerSettings
    }

    /// The reader's replication step; nil without `waitForReplicas`: it hands on only what the
    /// replicas hold and nobody voided.
    private func replication() -> RedisStreamReader.Replication? {
        guard settings.waitForReplicas > 0 else { return nil }
        var replication = RedisStreamReader.Replication(
            replicas: settings.waitForReplicas, timeout: settings.waitTimeout, key: settings.keys.readMark(of: settings.node))
        let keys = settings.keys
        replication.confirmed = { connection, read throws(RedisError) in
            guard let last = read.last else { return read }
            let voided = try Self.ids(
                connection.command(
                    [
                        "EVAL", RedisArgument(ClusterScripts.confirm), 2, RedisArgument(keys.confirmed), RedisArgument(keys.voided),
                        last.id.argument,
                    ]
                        + read.map(\.id.argument)))
            return voided.isEmpty ? read : read.filter { !voided.contains($0.id) }
        }
        replication.timedOut = { [self] _, read in
            // An entry that cannot be read is nobody's proposal (every node skips it).
            let entries = read.compactMap { raw in
                (try? ClusterEntry(raw)).map { $0.logEntry(at: LogPosition(raw.id)) }
            }
            deliver { [self] in handle(.replicasBehind(entries, now: Self.clock())) }
        }
        return replication
    }
}
