import Dispatch
import Foundation
import RiveSyncCluster
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncRedis

extension Daemon {
    /// What is wrong with the `cluster` section before Redis is contacted (also for
    /// `--check-config`): the URLs, and settings a node cannot have.
    static func clusterProblems(_ configuration: DaemonConfiguration) -> [String] {
        guard let cluster = configuration.cluster else { return [] }
        var problems: [String] = []
        for (i, shard) in cluster.allShards.enumerated() {
            do { _ = try RedisEndpoint(url: shard.redis) } catch {
                problems.append(cluster.shards.isEmpty ? "cluster.redis: \(error)" : "cluster.shards[\(i)].redis: \(error)")
            }
        }
        if configuration.stateDirectory != nil {
            problems.append("stateDirectory: a cluster node keeps no state directory (its log is in Redis); remove one of them")
        }
        return problems
    }

    /// Joins the cluster of the configuration (protocol/CLUSTER.md §2.7): the log of each shard
    /// this node serves, in configuration order (one per worker); empty for a single node.
    static func joinCluster(_ configuration: DaemonConfiguration, log: Log) throws -> [RedisChangeLog] {
        guard let cluster = configuration.cluster else { return [] }
        let problems = clusterProblems(configuration)
        guard problems.isEmpty else { throw ConfigurationError.invalid(problems.joined(separator: "; ")) }
        var joined: [RedisChangeLog] = []
        do {
            for shard in cluster.servedShards { joined.append(try joinShard(shard, of: configuration, log: log)) }
        } catch {
            for shardLog in joined { shardLog.stop() }
            throw error
        }
        return joined
    }

    /// Joins one shard's log and checks the configuration against the one it recorded.
    private static func joinShard(
        _ shard: DaemonConfiguration.Cluster.Shard, of configuration: DaemonConfiguration, log: Log
    ) throws -> RedisChangeLog {
        let cluster = configuration.cluster!
        let here = cluster.shards.isEmpty ? "cluster.redis" : "cluster.shards[\(cluster.allShards.firstIndex(of: shard) ?? 0)].redis"
        let endpoint = try RedisEndpoint(url: shard.redis)
        let settings = RedisChangeLog.Settings(
            endpoint: endpoint, keys: ClusterKeys(prefix: shard.prefix), node: cluster.node,
            lease: .milliseconds(cluster.leaseMilliseconds), timeout: .milliseconds(cluster.timeoutMilliseconds),
            snapshotEvery: configuration.snapshotEvery, waitForReplicas: cluster.waitForReplicas,
            waitTimeout: .milliseconds(cluster.waitTimeoutMilliseconds))
        let joined: RedisChangeLog
        let difference: String?
        do {
            joined = try RedisChangeLog(settings, newEpoch: { StateDirectory.newEpoch() })
            difference = try joined.configurationDifference(configurationFingerprint(configuration))
            log(
                .info, "joined the cluster",
                [
                    ("redis", "\(endpoint)"), ("shard", shard.name), ("node", cluster.node), ("epoch", joined.epoch),
                    ("slot", "\(joined.numbers.slot)"),
                ])
            if let persistence = joined.persistence, persistence != ("yes", "always") {
                log(
                    .warning, "Redis may lose acknowledged changes in a crash: run it with appendonly yes and appendfsync always",
                    [("appendonly", persistence.appendonly), ("appendfsync", persistence.appendfsync)])
            }
        } catch {
            throw ConfigurationError.invalid("\(here): \(error)")
        }
        if let difference {
            joined.stop()
            throw ConfigurationError.invalid(
                "cluster: this node's files, instances, state machines or defaultRate differ from the cluster's (every node must have the same): \(difference)"
            )
        }
        return joined
    }

    /// Starts applying each served shard's log on its worker after the configured state, and
    /// waits until the node has applied all of them (it serves only then).
    func startReplicating() throws {
        for (index, clusterLog) in context.clusterLogs.enumerated() { try startReplicating(clusterLog, on: workers[index]) }
        for clusterLog in context.clusterLogs {
            guard clusterLog.waitUntilCaughtUp(timeout: .seconds(120)) else {
                throw ConfigurationError.invalid("cluster.redis: the cluster log could not be read within 120 s")
            }
        }
        context.log(.info, "caught up with the cluster log", [])
    }

    private func startReplicating(_ clusterLog: RedisChangeLog, on worker: WorkerShell) throws {
        let log = context.log
        let dispatcher = self.dispatcher
        // Events come on the worker's queue.
        let context = self.context
        // Both hooks run on the worker's queue.
        let fileHeader = { (name: String) -> (number: UInt64, header: JournalHeader)? in
            guard let location = context.directory.file(name), let runtime = worker.files[name] else { return nil }
            return (location.number, JournalHeader(name: name, worker: worker.index, schema: runtime.schema.jsonValue))
        }
        let loadFile = { (name: String, header: JSONValue) -> Bool in
            let schema: FileSchema
            do { schema = try FileSchema(json: try JournalHeader(json: header).schema) } catch {
                log(.error, "a file of the cluster log cannot be loaded (on any node)", [("file", name), ("error", "\(error)")])
                return false
            }
            guard let location = context.reserveClusterFile(name, worker: worker.index) else { return false }
            worker.load(schema, as: name, number: location.number)
            log(.info, "file loaded from the cluster log", [("file", name)])
            return true
        }
        let assets = context.assets
        for asset in clusterLog.sharedAssets { assets.restore(id: asset.id, mediaType: asset.mediaType, byteCount: asset.byteCount) }
        try clusterLog.startReplicating(
            sink: worker, queue: worker.clusterQueue, fileHeader: fileHeader, loadFile: loadFile,
            addAsset: { assets.restore(id: $0.id, mediaType: $0.mediaType, byteCount: $0.byteCount) }
        ) { [weak self] event in
            switch event {
            case .caughtUp:
                log(.info, "reading the cluster log again", [])
                dispatcher.tellFreshness(true)
            case .cutOff(let error):
                log(.warning, "cut off from the cluster log; telling clients the state may be stale", [("error", "\(error)")])
                dispatcher.tellFreshness(false)
            case .leaseLost:
                log(.error, "the cluster lease ended; closing every connection (clients resume on another node)", [])
                worker.run(.proposalsDropped)
                dispatcher.closeEveryConnection(code: .goingAway, reason: "cluster lease lost")
            case .invalidEntry(let reason): log(.error, "skipped an entry of the cluster log", [("reason", reason)])
            case .snapshotFailed(let error):
                log(.error, "writing the cluster's snapshot failed; the log keeps its entries until the next one", [("error", "\(error)")])
            case .logLost(let loss):
                log(
                    .error, "leaving the cluster: exiting so that the supervisor starts this node again from the cluster's snapshot",
                    [("reason", "\(loss)"), ("status", "\(Self.logLostStatus)")])
                // Off the worker's queue: stopping waits for it. Connections close with 1001.
                let daemon = self
                DispatchQueue.global().async {
                    daemon?.stop()
                    _exit(Self.logLostStatus)
                }
            }
        }
    }
}

extension Daemon {
    /// The exit status of a node that must start again from the snapshot (EX_TEMPFAIL): its
    /// supervisor restarts it (`Restart=on-failure`).
    static let logLostStatus: Int32 = 75
}

extension Dispatchers {
    /// Tells every connection that has said hello whether the node's state may be behind the
    /// cluster's (`freshness`, PROTOCOL.md §7.1): false once it cannot read the log, true once
    /// it has caught up again.
    func tellFreshness(_ fresh: Bool) {
        post(.freshness(fresh))
    }

    /// Tells the connection cores where the other shards' nodes and targets are, as the shard
    /// directory read them (`wrong_node` answers carry them, protocol/CLUSTER.md §6.3).
    func tellShardsRead(nodes: [String: [String]], targets: [String: String]) {
        post(.shardsRead(nodes: nodes, targets: targets))
    }

    /// Closes every connection (a cluster node whose lease ended: its acks can no longer be
    /// trusted, so its clients go on elsewhere, protocol/CLUSTER.md §3.2).
    func closeEveryConnection(code: CloseCode, reason: String) {
        post(.closeAll(code: code, reason: reason))
    }
}

extension WorkerShell {
    /// The queue of a cluster node's worker, where its `RedisChangeLog` delivers (a cluster
    /// node's workers are hosted on queues, `Daemon.init`).
    var clusterQueue: DispatchQueue {
        guard let host = host as? QueueHost else { preconditionFailure("a cluster node's worker runs on a queue") }
        return host.queue
    }
}
