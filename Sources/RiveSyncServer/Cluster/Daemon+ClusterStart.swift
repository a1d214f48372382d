import Foundation
import RiveSyncCluster
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel

extension Daemon {
    /// What every node of a cluster must share (protocol/CLUSTER.md §1.5): each configured file's
    /// name and content (SHA-256 of its bytes), the instances, the state machines, the default
    /// rate and `snapshotEvery`, in configuration order; with `shards`, the shards and
    /// `fileShards` first (§6).
    static func configurationFingerprint(_ configuration: DaemonConfiguration) -> JSONValue {
        func content(_ entry: DaemonConfiguration.FileEntry) -> String {
            if let schema = entry.schema { return SHA256Digest.hex(schema.serialized()) }
            guard let path = entry.path, let data = FileManager.default.contents(atPath: path) else { return "unreadable" }
            return SHA256Digest.hex([UInt8](data))
        }
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        // With `shards`, their names and prefixes and where files go (not `serves`, `url`, `node`).
        var sharding: [(String, JSONValue)] = []
        if let cluster = configuration.cluster, !cluster.shards.isEmpty {
            sharding = [
                ("shards", .array(cluster.shards.map { .object([("name", .string($0.name)), ("prefix", .string($0.prefix))]) })),
                ("fileShards", .object(cluster.fileShards.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ]
        }
        return .object(
            sharding + [
                ("files", .array(configuration.files.map { .object([("name", .string($0.name)), ("sha256", .string(content($0)))]) })),
                (
                    "instances",
                    .array(
                        configuration.instances.map {
                            .object([
                                ("name", .string($0.name)), ("file", .string($0.file)), ("viewModel", .string($0.viewModel)),
                                ("instance", optional($0.instance)),
                            ])
                        })
                ),
                (
                    "stateMachines",
                    .array(
                        configuration.stateMachines.map { entry in
                            .object([
                                ("name", .string(entry.name)), ("file", .string(entry.file)), ("artboard", optional(entry.artboard)),
                                ("stateMachine", optional(entry.stateMachine)),
                                ("globals", .object(entry.globals.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
                                ("manual", .bool(entry.manual)), ("rate", .number(entry.rate)),
                            ])
                        })
                ),
                ("defaultRate", .number(configuration.defaultRate)),
                ("snapshotEvery", .number(Double(configuration.snapshotEvery))),
            ])
    }

    /// Restores the files of each served shard's latest snapshots (instead of the configured
    /// state, which they include): each file under its number, its state, targets and recent
    /// batches, on the shard's worker.
    func restoreSnapshots() throws {
        var highestCommand: UInt64 = 0
        for (index, clusterLog) in context.clusterLogs.enumerated() {
            let worker = workers[index]
            for file in clusterLog.restored {
                let name = file.header.name
                guard context.directory.restoreFile(name, worker: worker.index, number: file.number) else {
                    throw ConfigurationError.invalid("cluster: the snapshots hold file '\(name)' or file number \(file.number) twice")
                }
                do {
                    let schema = try FileSchema(json: file.header.schema)
                    let highest = try worker.host.sync { () throws -> UInt64 in
                        defer { worker.perform(worker.core.takeActions()) }
                        return try worker.core.restore(
                            schema, as: name, firstInstanceID: file.number << Directory.fileIDShift | 1, snapshot: file.snapshot,
                            records: [])
                    }
                    highestCommand = max(highestCommand, highest)
                } catch {
                    throw ConfigurationError.invalid("cluster: the snapshot of file '\(name)' does not restore: \(error)")
                }
                context.log(.info, "restored from the cluster's snapshot", [("file", name), ("upTo", "\(file.upTo)")])
            }
        }
        guard !context.clusterLogs.isEmpty else { return }
        for worker in workers { worker.host.sync { worker.core.ensureCommandNumbers(counterAbove: highestCommand) } }
    }

    /// The configured files this cluster node does not load from its configuration: those of
    /// shards it does not serve, and those of shards restored from snapshots (which hold them).
    func filesNotConfiguredHere() -> Set<String> {
        guard let cluster = context.configuration.cluster else { return [] }
        let served = cluster.servedShards
        let restored = Set(zip(served, context.clusterLogs).filter { !$1.restored.isEmpty }.map { $0.0.name })
        return Set(
            context.configuration.files.map(\.name).filter { name in
                let shard = cluster.shard(ofFile: name)
                return !served.contains(shard) || restored.contains(shard.name)
            })
    }

    /// The worker a configured file goes to and where it is placed: on a cluster node the
    /// worker of its shard, numbered in its shard's series; else `entry.worker` or each in turn.
    func placeConfiguredFile(_ entry: DaemonConfiguration.FileEntry, index: Int) -> Directory.FileLocation? {
        guard context.configuration.cluster != nil else {
            return context.directory.reserveFile(entry.name, worker: (entry.worker ?? index) % workers.count)
        }
        guard case .success(let worker) = context.clusterWorker(ofFile: entry.name) else { return nil }
        return context.reserveClusterFile(entry.name, worker: worker)
    }
}
