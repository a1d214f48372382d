import Foundation
import RiveSyncCluster
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport
import Synchronization

/// What every part of the daemon shares: configuration, the directory, counters, the asset
/// store, the epoch, and the way out to the transport.
package final class ServerContext: Sendable {
    let configuration: DaemonConfiguration
    let limits: Locked<Limits>
    let directory = Directory()
    package let metrics: DaemonMetrics
    let assets: AssetStore
    let epoch: String
    let log: Log
    /// Where state persists, if anywhere.
    let stateDirectory: StateDirectory?
    /// The logs of the shards this cluster node serves, one per worker (protocol/CLUSTER.md
    /// §6); empty for a single node.
    let clusterLogs: [RedisChangeLog]
    /// The first served shard's log (uploads go through it), nil for a single node.
    var clusterLog: RedisChangeLog? { clusterLogs.first }
    /// How a cluster node shares presence with the other nodes of each served shard, one per
    /// worker (protocol/CLUSTER.md §2.9).
    let presenceRelays: [PresenceRelay]
    /// Where the nodes of every shard are, for `wrong_node` errors (nil unless the cluster has
    /// `shards`).
    let shardDirectory: ShardDirectory?
    /// The transport's outlet once attached, read without a lock or a retain (`withOutlet`,
    /// on every submit and every worker event): the holder it points to is kept by `attached`.
    private let outlet = Atomic<Unmanaged<OutletHolder>?>(nil)
    /// Every outlet holder attached, kept as long as the context: a later `attach` replaces the
    /// outlet while a reader may still be using the one it read.
    private let attached = Locked<[OutletHolder]>([])
    /// Where the workers and the dispatcher read the time and set their timers.
    let clock: any DaemonClock
    /// Whether `clock` is the system's: `now()` then reads it directly (asked once; through
    /// the existential, each read copied it first, several times per set).
    private let clockIsSystem: Bool

    init(
        configuration: DaemonConfiguration, epoch: String, log: Log, stateDirectory: StateDirectory? = nil,
        clusterLogs: [RedisChangeLog] = [], clock: any DaemonClock = SystemClock()
    ) {
        self.clock = clock
        clockIsSystem = clock is SystemClock
        self.stateDirectory = stateDirectory
        self.clusterLogs = clusterLogs
        self.presenceRelays = clusterLogs.map { PresenceRelay($0.settings) }
        self.shardDirectory = configuration.cluster.flatMap { $0.shards.isEmpty || clusterLogs.isEmpty ? nil : ShardDirectory($0) }
        self.configuration = configuration
        self.limits = Locked(configuration.limits)
        self.metrics = DaemonMetrics(maxTargetLabels: configuration.maxTargetLabels)
        self.assets = AssetStore(capacityBytes: max(configuration.limits.maxAssetBytes * 16, 64 << 20))
        self.epoch = epoch
        self.log = log
    }

    /// `clock`'s now, in nanoseconds.
    func now() -> UInt64 { clockIsSystem ? SystemClock().now() : clock.now() }

    /// Where transport commands go: the WebSocket server, or an in-process test's recorder.
    package func attach(_ server: any TransportOutlet) {
        let holder = OutletHolder(server)
        attached.withLock { $0.append(holder) }
        outlet.store(Unmanaged.passUnretained(holder), ordering: .releasing)
    }

    /// `body` with the outlet lent (nil before `attach`): no lock taken, no reference counted.
    private func withOutlet<Result>(_ body: (any TransportOutlet) -> Result) -> Result? {
        guard let holder = outlet.load(ordering: .acquiring) else { return nil }
        return holder._withUnsafeGuaranteedRef { body($0.outlet) }
    }

    /// Hands transport commands to the service thread in one submit (one lock, one wakeup).
    func submit(_ commands: [WebSocketServer.Command]) {
        guard !commands.isEmpty else { return }
        _ = withOutlet { $0.submit(commands) }
    }

    /// Bytes queued for a session on the service thread (a recent snapshot).
    func queuedBytes(_ session: SessionID) -> Int {
        withOutlet { $0.queuedBytes(session) ?? 0 } ?? 0
    }

    /// Bytes queued on the service thread for all sessions together (a recent snapshot).
    func totalQueuedBytes() -> Int {
        withOutlet { $0.totalQueuedBytes } ?? 0
    }

    /// Encodes a message once as a shareable text payload.
    static func payload(_ message: ServerMessage) -> Payload {
        Payload(bytes: message.serialized(), isText: true)
    }
}

/// The transport's outlet, for `ServerContext`'s reads without a lock (an existential of a
/// class is two words: one reference to this is what the context can swap atomically).
private final class OutletHolder: Sendable {
    let outlet: any TransportOutlet

    init(_ outlet: any TransportOutlet) { self.outlet = outlet }
}
