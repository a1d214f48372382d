import RiveSyncCluster

extension Daemon {
    /// Starts sharing presence with the other nodes of each served shard (protocol/CLUSTER.md
    /// §2.9): their announcements go to the shard's worker's queue, and the worker asks them for
    /// their members.
    func startSharingPresence() throws {
        let log = context.log
        for (relay, worker) in zip(context.presenceRelays, workers) {
            do {
                try relay.start(
                    deliver: { node, announcement in worker.host.async { worker.run(.presenceAnnounced(node: node, announcement)) } },
                    invalid: { reason in log(.error, "skipped a presence announcement of the cluster", [("reason", reason)]) })
            } catch {
                throw ConfigurationError.invalid("cluster.redis: the presence stream could not be read: \(error)")
            }
            worker.host.async { worker.run(.presenceSharingStarted) }
        }
    }

    /// Starts announcing this node's URL on its shards and reading where the others' nodes are
    /// (`ShardDirectory`), when the cluster has several shards.
    func startShardDirectory() {
        guard let directory = context.shardDirectory else { return }
        let log = context.log
        let placement = context.directory
        let dispatcher = self.dispatcher
        directory.start(targets: { placement.targetFiles() }, read: { dispatcher.tellShardsRead(nodes: $0, targets: $1) }) {
            shard, error in
            log(.warning, "the nodes of a shard could not be read or announced", [("shard", shard), ("error", "\(error)")])
        }
    }
}

extension ServerContext {
    /// The cluster's metrics for `/metrics`: each served shard's log, then each shard's
    /// presence relay (labelled by shard when the cluster has `shards`).
    func clusterMetricsText() -> String {
        guard let cluster = configuration.cluster, !clusterLogs.isEmpty else { return "" }
        let shards: [String?] = cluster.shards.isEmpty ? [nil] : cluster.servedShards.map(\.name)
        return ClusterMetrics.prometheusText(zip(shards, clusterLogs).map { ($0, $1.metrics) })
            + PresenceRelay.prometheusText(zip(shards, presenceRelays).map { ($0, $1) })
    }
}
