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
    /// A node's lease (its current fencing token).
    public func lease(of node: String) -> String { "\(prefix):lease:\(node)" }
}
