import Dispatch
import RiveSyncCluster
import RiveSyncRedis
import Synchronization

/// Where the nodes and targets of every shard of a cluster are (protocol/CLUSTER.md §6.3).
/// Every third of the lease, for each shard this node serves, it announces its `url` in the
/// shard's `<prefix>:nodes` (a sorted set, URL → until when in Redis's own time) and writes the
/// shard's targets as it applied them to `<prefix>:targets` (name → file); for every shard, it
/// reads the nodes' URLs, and for the others their targets, to tell a client asking for another
/// shard's file or target where to go (`wrong_node`). Only these keys are touched on other
/// shards' Redis, never their logs.
///
/// Threads: every Redis command runs on `queue`; `lastRead()` may be called anywhere.
/// `@unchecked Sendable`: its stored `var`s are touched only on `queue`, and what was read
/// (`known`) is behind a `Mutex`.
final class ShardDirectory: @unchecked Sendable {
    let cluster: DaemonConfiguration.Cluster
    private struct Known: Equatable {
        var nodes: [String: [String]] = [:]
        /// Targets of shards this node does not serve → their shard.
        var targets: [String: String] = [:]
    }
    private let known = Mutex(Known())
    private let queue = DispatchQueue(label: "rivesyncd.cluster.shards")
    /// One connection per shard, by name (touched on `queue` only).
    private var connections: [String: RedisConnection] = [:]
    /// The targets written to each served shard's `<prefix>:targets` (touched on `queue` only).
    private var written: [String: Set<String>] = [:]
    /// This node's targets with their files (the daemon's directory).
    private var localTargets: @Sendable () -> [String: String] = { [:] }
    /// Told of each reading that changed something (touched on `queue` only).
    private var reported: @Sendable ([String: [String]], [String: String]) -> Void = { _, _ in }
    private var timer: DispatchSourceTimer?

    init(_ cluster: DaemonConfiguration.Cluster) { self.cluster = cluster }

    /// The URLs of the nodes serving each shard and the targets of shards this node does not
    /// serve (→ their shard), as last read.
    func lastRead() -> (nodes: [String: [String]], targets: [String: String]) {
        known.withLock { ($0.nodes, $0.targets) }
    }

    /// Announces and reads once (so that the first `wrong_node` has the URLs), then every third
    /// of the lease. `targets` gives this node's targets and their files; `read` is told what
    /// was read whenever it differs from the last reading (the connection core's copy follows);
    /// `failed` is told of each shard's failed refresh (what was read last stays).
    func start(
        targets: @escaping @Sendable () -> [String: String], read: @escaping @Sendable ([String: [String]], [String: String]) -> Void,
        failed: @escaping @Sendable (String, RedisError) -> Void
    ) {
        queue.sync {
            localTargets = targets
            reported = read
            refresh(failed: failed)
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.milliseconds(max(100, cluster.leaseMilliseconds / 3))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.refresh(failed: failed) }
        timer.resume()
        self.timer = timer
    }

    /// Stops announcing and withdraws this node's URL (the entries expire anyway).
    func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
            if let url = cluster.url {
                for shard in cluster.servedShards {
                    // Ignorable: the announcement expires a lease later by itself.
                    _ = try? connections[shard.name]?.command([
                        "ZREM", RedisArgument(ClusterKeys(prefix: shard.prefix).nodes), RedisArgument(url),
                    ])
                }
            }
            for connection in connections.values { connection.close() }
            connections = [:]
        }
    }

    private func refresh(failed: (String, RedisError) -> Void) {
        let targets = localTargets()
        let before = known.withLock { $0 }
        var now = before
        var elsewhere: [String: String] = [:]
        for shard in cluster.allShards {
            do {
                let (urls, names) = try refresh(shard, local: targets)
                now.nodes[shard.name] = urls
                for name in names { elsewhere[name] = shard.name }
            } catch {
                connections[shard.name]?.close()
                connections[shard.name] = nil
                written[shard.name] = nil
                for (name, owner) in before.targets where owner == shard.name { elsewhere[name] = owner }
                failed(shard.name, error)
            }
        }
        now.targets = elsewhere
        known.withLock { $0 = now }
        if now != before { reported(now.nodes, now.targets) }
    }

    /// On a served shard: renews this node's URL and writes the shard's targets (new ones added,
    /// deleted ones removed). On every shard: drops expired URLs and reads the others; on a shard
    /// not served, reads its target names.
    private func refresh(
        _ shard: DaemonConfiguration.Cluster.Shard, local: [String: String]
    ) throws(RedisError) -> (urls: [String], targets: [String]) {
        let connection: RedisConnection
        if let open = connections[shard.name] {
            connection = open
        } else {
            connection = try RedisConnection(try RedisEndpoint(url: shard.redis), timeout: .milliseconds(cluster.timeoutMilliseconds))
            connections[shard.name] = connection
        }
        let keys = ClusterKeys(prefix: shard.prefix)
        let nodes = RedisArgument(keys.nodes)
        guard let time = try connection.command(["TIME"]).array(), time.count == 2,
            let seconds = try time[0].string().flatMap(Int.init), let micros = try time[1].string().flatMap(Int.init)
        else { throw .unexpectedReply("TIME") }
        let now = seconds * 1000 + micros / 1000
        var targets: [String] = []
        if cluster.serves(shard) {
            if let url = cluster.url {
                try connection.command(["ZADD", nodes, RedisArgument(now + cluster.leaseMilliseconds), RedisArgument(url)])
            }
            try writeTargets(of: shard, local: local, on: connection, key: RedisArgument(keys.targets))
        } else {
            let fields = try connection.command(["HKEYS", RedisArgument(keys.targets)]).array() ?? []
            for field in fields { if let name = try field.string() { targets.append(name) } }
        }
        try connection.command(["ZREMRANGEBYSCORE", nodes, "-inf", RedisArgument(now)])
        let members = try connection.command(["ZRANGE", nodes, 0, -1]).array() ?? []
        var urls: [String] = []
        for member in members { if let url = try member.string() { urls.append(url) } }
        return (urls, targets)
    }

    /// Writes the targets of `shard`'s files that this node holds and did not write yet, and
    /// removes those it wrote that are gone.
    private func writeTargets(
        of shard: DaemonConfiguration.Cluster.Shard, local: [String: String], on connection: RedisConnection, key: RedisArgument
    ) throws(RedisError) {
        let mine = local.filter { cluster.shard(ofFile: $0.value) == shard }
        let before = written[shard.name] ?? []
        let added = mine.filter { !before.contains($0.key) }
        let removed = before.subtracting(mine.keys)
        if !added.isEmpty {
            try connection.command(["HSET", key] + added.flatMap { [RedisArgument($0.key), RedisArgument($0.value)] })
        }
        if !removed.isEmpty { try connection.command(["HDEL", key] + removed.map { RedisArgument($0) }) }
        written[shard.name] = Set(mine.keys)
    }
}
