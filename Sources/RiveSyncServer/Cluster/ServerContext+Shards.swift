import RiveSyncCluster
import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol

extension ServerContext {
    /// Places a file of the cluster's log on `worker`: with `shards` configured, under the next
    /// number of its shard's own series (shard `j` of `S` numbers its files `j + 1`, `j + 1 + S`,
    /// …), so that every node of the shard numbers them alike whatever else it serves (file
    /// numbers decide instance ids); else under the next number. Nil when the name is taken.
    func reserveClusterFile(_ name: String, worker: Int) -> Directory.FileLocation? {
        guard let cluster = configuration.cluster, !cluster.shards.isEmpty else { return directory.reserveFile(name, worker: worker) }
        let shards = cluster.allShards
        let count = UInt64(shards.count)
        let series = UInt64(shards.firstIndex(of: cluster.shard(ofFile: name)) ?? 0)
        let highest = directory.fileNumbers().filter { ($0 - 1) % count == series }.max()
        let number = highest.map { $0 + count } ?? series + 1
        guard directory.restoreFile(name, worker: worker, number: number) else { return nil }
        return Directory.FileLocation(worker: worker, number: number)
    }

    /// The worker (and log) of a cluster file's shard on this node, or the `wrong_node` error
    /// when this node does not serve it.
    func clusterWorker(ofFile name: String) -> Result<Int, WireError> {
        guard let cluster = configuration.cluster else { return .success(0) }
        let shard = cluster.shard(ofFile: name)
        guard let index = cluster.servedShards.firstIndex(of: shard) else { return .failure(wrongNode(shard, "file '\(name)'")) }
        return .success(index)
    }

    /// `wrong_node` for a file or target (`what`) of `shard`, which this node does not serve:
    /// with the shard's name and the URLs of the nodes that announced they serve it.
    func wrongNode(_ shard: DaemonConfiguration.Cluster.Shard, _ what: String) -> WireError {
        (shardPlacement() ?? ShardPlacement(shards: [], served: [], fileShards: [:], configuredTargets: [:])).wrongNode(shard.name, what)
    }

    /// Where the shards' files and targets are, for the connection core: from the configuration
    /// and what the shard directory read last (nil for a single daemon or one shard).
    func shardPlacement() -> ShardPlacement? {
        guard let cluster = configuration.cluster, !cluster.shards.isEmpty else { return nil }
        var configuredTargets: [String: String] = [:]
        for entry in configuration.instances { configuredTargets[entry.name] = entry.file }
        for entry in configuration.stateMachines { configuredTargets[entry.name] = entry.file }
        let read = shardDirectory?.lastRead() ?? (nodes: [:], targets: [:])
        return ShardPlacement(
            shards: cluster.allShards.map(\.name), served: Set(cluster.servedShards.map(\.name)), fileShards: cluster.fileShards,
            configuredTargets: configuredTargets, nodes: read.nodes, targets: read.targets)
    }
}
