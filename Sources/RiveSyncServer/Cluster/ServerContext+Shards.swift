import RiveSyncCluster
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
        let nodes = shardDirectory?.nodes(of: shard.name) ?? []
        return WireError(
            code: .wrongNode, message: "\(what) is on shard '\(shard.name)', which this node does not serve",
            details: [("shard", .string(shard.name)), ("nodes", .array(nodes.map(JSONValue.string)))])
    }

    /// The `wrong_node` error for a file this node does not hold because another shard has it.
    func placedElsewhere(file name: String) -> WireError? {
        guard let cluster = configuration.cluster else { return nil }
        let shard = cluster.shard(ofFile: name)
        return cluster.serves(shard) ? nil : wrongNode(shard, "file '\(name)'")
    }

    /// The `wrong_node` error for a target of a shard this node does not serve: a target of the
    /// configuration (a state machine or instance entry) by its file, else one a client created
    /// there, as the shard's nodes last listed it (`ShardDirectory`; nil when unknown).
    func placedElsewhere(target name: String) -> WireError? {
        guard let cluster = configuration.cluster else { return nil }
        let file =
            configuration.stateMachines.first(where: { $0.name == name })?.file
            ?? configuration.instances.first(where: { $0.name == name })?.file
        if let file {
            let shard = cluster.shard(ofFile: file)
            return cluster.serves(shard) ? nil : wrongNode(shard, "target '\(name)'")
        }
        guard let named = shardDirectory?.shard(ofTarget: name), let shard = cluster.allShards.first(where: { $0.name == named }),
            !cluster.serves(shard)
        else { return nil }
        return wrongNode(shard, "target '\(name)'")
    }
}
