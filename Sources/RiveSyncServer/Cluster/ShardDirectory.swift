import Dispatch
import RiveSyncCluster
import RiveSyncRedis
import Synchronization

/// Where the nodes of every shard of a cluster are (protocol/CLUSTER.md §6.3): a node with a
/// `url` announces it in each served shard's `<prefix>:nodes` (a sorted set, URL → until when
/// in Redis's own time), renewed every third of the lease; and it reads every shard's set, to
/// tell a client asking for another shard's file or target where to go (`wrong_node`). Only
/// these sets are read on other shards' Redis, never their logs.
///
/// Threads: every Redis command runs on `queue`; `nodes(of:)` may be called anywhere.
final class ShardDirectory: @unchecked Sendable {
    let cluster: DaemonConfiguration.Cluster
    private let known = Mutex<[String: [String]]>([:])
    private let queue = DispatchQueue(label: "rivesyncd.cluster.shards")
    /// One connection per shard, by name (touched on `queue` only).
    private var connections: [String: RedisConnection] = [:]
    private var timer: DispatchSourceTimer?

    init(_ cluster: DaemonConfiguration.Cluster) { self.cluster = cluster }

    /// The URLs of the nodes serving `shard`, as last read (empty when none announced one).
    func nodes(of shard: String) -> [String] { known.withLock { $0[shard] ?? [] } }

    /// Announces and reads once (so that the first `wrong_node` has the URLs), then every third
    /// of the lease. `failed` is told of each shard's failed refresh (the last URLs stay).
    func start(failed: @escaping @Sendable (String, RedisError) -> Void) {
        queue.sync { refresh(failed: failed) }
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
        for shard in cluster.allShards {
            do {
                let urls = try refresh(shard)
                known.withLock { $0[shard.name] = urls }
            } catch {
                connections[shard.name]?.close()
                connections[shard.name] = nil
                failed(shard.name, error)
            }
        }
    }

    /// Renews this node's URL on a served shard, drops expired ones, and reads the others.
    private func refresh(_ shard: DaemonConfiguration.Cluster.Shard) throws(RedisError) -> [String] {
        let connection: RedisConnection
        if let open = connections[shard.name] {
            connection = open
        } else {
            connection = try RedisConnection(try RedisEndpoint(url: shard.redis), timeout: .milliseconds(cluster.timeoutMilliseconds))
            connections[shard.name] = connection
        }
        let key = RedisArgument(ClusterKeys(prefix: shard.prefix).nodes)
        guard let time = try connection.command(["TIME"]).array(), time.count == 2,
            let seconds = try time[0].string().flatMap(Int.init), let micros = try time[1].string().flatMap(Int.init)
        else { throw .unexpectedReply("TIME") }
        let now = seconds * 1000 + micros / 1000
        if let url = cluster.url, cluster.serves(shard) {
            try connection.command(["ZADD", key, RedisArgument(now + cluster.leaseMilliseconds), RedisArgument(url)])
        }
        try connection.command(["ZREMRANGEBYSCORE", key, "-inf", RedisArgument(now)])
        let members = try connection.command(["ZRANGE", key, 0, -1]).array() ?? []
        var urls: [String] = []
        for member in members { if let url = try member.string() { urls.append(url) } }
        return urls
    }
}
