import RiveSyncCluster
import RiveSyncCore
import RiveSyncModel

/// What a worker core asks of the daemon, answered from the context: the monotonic clock, the
/// current limits, the asset store and libcrypto's SHA-256 (the transport's queue sizes are
/// reported to the core as events, `WorkerShell.run`; target names go through actions).
final class WorkerShellEnvironment: WorkerEnvironment {
    let context: ServerContext
    /// The log of the worker's shard on a cluster node (its epoch, slot and lease).
    let clusterLog: RedisChangeLog?

    init(context: ServerContext, clusterLog: RedisChangeLog? = nil) {
        self.context = context
        self.clusterLog = clusterLog
    }

    func now() -> UInt64 { context.clock.now() }

    var limits: WorkerLimits {
        let limits = context.limits.withLock { $0 }
        var workerLimits = WorkerLimits(
            maxListLength: limits.maxListLength, maxStringBytes: limits.maxStringBytes, maxInstancesPerFile: limits.maxInstancesPerFile,
            maxTargets: limits.maxTargets, maxSendQueueBytes: limits.maxSendQueueBytes, historyBatches: limits.historyBatches)
        workerLimits.presence = limits.presence
        return workerLimits
    }

    /// The epoch of the worker's shard on a cluster node (each shard's log has its own).
    var epoch: String { clusterLog?.epoch ?? context.epoch }
    var defaultRate: Double { context.configuration.defaultRate }
    var snapshotEvery: Int { context.configuration.snapshotEvery }
    var recordsAuthors: Bool { context.configuration.authors }
    var sharesManualAdvances: Bool { clusterLog != nil }
    var presenceSharing: PresenceSharing? {
        guard let clusterLog else { return nil }
        let lease = clusterLog.settings.lease.components
        return PresenceSharing(
            slot: clusterLog.numbers.slot, slots: ClusterCommandNumbers.slots,
            leaseNanoseconds: UInt64(lease.seconds) * 1_000_000_000 + UInt64(lease.attoseconds / 1_000_000_000))
    }
    func assetExists(_ id: String) -> Bool { context.assets.contains(id) }
    func sha256Hex(_ bytes: [UInt8]) -> String { SHA256Digest.hex(bytes) }
}
