import RiveSyncRedis

/// The Redis keys of one cluster (protocol/CLUSTER.md §2.1), under its prefix.
public struct ClusterKeys: Sendable {
    public var prefix: String

    public init(prefix: String) { self.prefix = prefix }

    /// The log stream.
    public var log: String { "\(prefix):log" }
    /// The cluster's epoch.
    public var epoch: String { "\(prefix):epoch" }
    /// The counter that hands out command-number slots.
    public var slots: String { "\(prefix):slots" }
    /// Every file's latest snapshot: file name → `<stream id>\n<snapshot JSON>`.
    public var snapshots: String { "\(prefix):snapshots" }
    /// The stream id of every file's latest snapshot: file name → id (the trim point is the lowest).
    public var snapshotIDs: String { "\(prefix):snapshot-ids" }
    /// Every snapshotted file's number and `file.json` header: file name → JSON.
    public var files: String { "\(prefix):files" }
    /// Where the next trim cuts: the lowest snapshot id at the last store.
    public var trimPoint: String { "\(prefix):trim-point" }
    /// Every asset uploaded to the cluster: id → `<size> <media type>`.
    public var assets: String { "\(prefix):assets" }
    /// Nodes starting from the snapshots: node → the id it reads from and until when (ms).
    public var pins: String { "\(prefix):pins" }
    /// The highest entry each trim deleted, newest first (the last 64 trims).
    public var trims: String { "\(prefix):trims" }
    /// The fingerprint of the configured files, instances and state machines (set by the first node).
    public var configuration: String { "\(prefix):configuration" }
    /// The highest entry any node's reader read with the replicas holding it (CLUSTER.md §3.6).
    public var confirmed: String { "\(prefix):confirmed" }
    /// Entries voided after their node's `WAIT` timed out: no node applies them (§3.6).
    public var voided: String { "\(prefix):voided" }
    /// The public URLs of the nodes serving this shard (sorted set: URL → until when, Redis
    /// time in ms), for `wrong_node` errors (CLUSTER.md §6).
    public var nodes: String { "\(prefix):nodes" }
    /// The shard's targets (hash: target name → file), written by the nodes serving it, read by
    /// the others for `wrong_node` (CLUSTER.md §6.3).
    public var targets: String { "\(prefix):targets" }
    /// The last entry a node's reader read, written before its `WAIT` (CLUSTER.md §3.6).
    public func readMark(of node: String) -> String { "\(prefix):read:\(node)" }
    /// A node's lease (its current fencing token).
    public func lease(of node: String) -> String { "\(prefix):lease:\(node)" }
}
