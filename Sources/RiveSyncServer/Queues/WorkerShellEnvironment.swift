import RiveSyncCluster
import RiveSyncCore
import RiveSyncModel
import RiveSyncTransport

/// What a worker core asks of the daemon, answered from the context: the monotonic clock and
/// libcrypto's SHA-256 (the asset store's changes are events, `Daemon.tellAssets`; the transport's queue sizes are reported to the core as
/// events, `WorkerShell.run`; target names go through actions; the configuration is sent,
/// `workerSettings(clusterLog:)`).
final class WorkerShellEnvironment: WorkerEnvironment {
    let context: ServerContext

    init(context: ServerContext) { self.context = context }

    func now() -> UInt64 { context.now() }
    func sha256Hex(_ bytes: [UInt8]) -> String { SHA256Digest.hex(bytes) }
}

extension ServerContext {
    /// The limits a worker core applies, as they are now.
    var workerLimits: WorkerLimits {
        let limits = self.limits.withLock { $0 }
        var workerLimits = WorkerLimits(
            maxListLength: limits.maxListLength, maxStringBytes: limits.maxStringBytes, maxInstancesPerFile: limits.maxInstancesPerFile,
            maxTargets: limits.maxTargets, maxSendQueueBytes: limits.maxSendQueueBytes, historyBatches: limits.historyBatches)
        workerLimits.presence = limits.presence
        return workerLimits
    }

    /// A worker core's settings from the configuration and the limits as they are now.
    /// `clusterLog`: the log of the worker's shard on a cluster node (its epoch, slot and
    /// lease; each shard's log has its own epoch).
    func workerSettings(clusterLog: RedisChangeLog?) -> WorkerSettings {
        var presenceSharing: PresenceSharing?
        if let clusterLog {
            let lease = clusterLog.settings.lease.components
            presenceSharing = PresenceSharing(
                slot: clusterLog.numbers.slot, slots: ClusterCommandNumbers.slots,
                leaseNanoseconds: UInt64(lease.seconds) * 1_000_000_000 + UInt64(lease.attoseconds / 1_000_000_000))
        }
        var settings = WorkerSettings(
            limits: workerLimits, epoch: clusterLog?.epoch ?? epoch, defaultRate: configuration.defaultRate,
            snapshotEvery: configuration.snapshotEvery, sharesManualAdvances: clusterLog != nil, presenceSharing: presenceSharing,
            recordsAuthors: configuration.authors)
        settings.frameHeadroom = Payload.headroom
        return settings
    }
}
