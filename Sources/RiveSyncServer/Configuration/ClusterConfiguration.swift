import Foundation
import RiveSyncJSON

extension DaemonConfiguration {
    /// The `cluster` section (protocol/CLUSTER.md §4.1): this daemon is one node of a cluster
    /// whose shared log is a Redis stream. Absent: a single node, and Redis is never contacted.
    public struct Cluster: Sendable, Hashable {
        /// `redis://[[user]:password@]host[:port][/database]`, or
        /// `redis-sentinel://[[user]:password@]host[:port][,host[:port]…]/primary[/database]`
        /// (`--redis` sets it).
        public var redis: String
        /// This node's name in the log and its lease key; unique in the cluster.
        public var node: String
        /// Prefix of every Redis key the cluster uses.
        public var prefix = "rivesync"
        /// How long the node's lease lasts without a renewal.
        public var leaseMilliseconds = 5000
        /// Connect and command timeout towards Redis.
        public var timeoutMilliseconds = 2000
        /// Replicas that must hold an entry before it applies and is acked (`WAIT`); 0: none.
        public var waitForReplicas = 0
        /// How long one `WAIT` may take before the node counts the log unreachable.
        public var waitTimeoutMilliseconds = 1000
        /// The cluster's shards (`shards`); empty: one implicit shard, `redis` and `prefix`.
        public var shards: [Shard] = []
        /// The shards this node serves (`serves`); nil: all of them.
        public var serves: [String]?
        /// Files placed on a shard by name (`fileShards`); other files by their name's hash.
        public var fileShards: [String: String] = [:]
        /// The URL clients reach this node at (`url`), told to clients of other shards' nodes
        /// in `wrong_node` errors; nil: this node is not announced.
        public var url: String?

        /// A cluster on `redis`, with the node named after the host and process.
        public init(redis: String, node: String = Cluster.defaultNodeName()) {
            self.redis = redis
            self.node = node
        }

        /// `<host name>-<process id>`.
        public static func defaultNodeName() -> String {
            "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
        }

        /// Reads the section (`redis` required unless every shard names its own; the others default).
        init(json: JSONValue) throws(ConfigurationError) {
            guard json.objectValue != nil else { throw .invalid("cluster: expected an object") }
            var problems = ConfigurationProblems()
            problems.refuseUnknownKeys(of: json, section: "cluster", here: "cluster")
            try problems.throwIfAny()
            let redis = json["redis"] == nil && json["shards"] != nil ? "" : try DaemonConfiguration.string(json["redis"], "cluster.redis")
            self.init(redis: redis)
            if let node = json["node"] {
                self.node = try DaemonConfiguration.string(node, "cluster.node")
                guard !self.node.isEmpty else { throw .invalid("cluster.node: must not be empty") }
            }
            if let prefix = json["prefix"] { self.prefix = try DaemonConfiguration.string(prefix, "cluster.prefix") }
            if let lease = json["leaseMilliseconds"] {
                leaseMilliseconds = try DaemonConfiguration.integer(lease, "cluster.leaseMilliseconds", in: 1000...60_000)
            }
            if let timeout = json["timeoutMilliseconds"] {
                timeoutMilliseconds = try DaemonConfiguration.integer(timeout, "cluster.timeoutMilliseconds", in: 100...30_000)
            }
            if let replicas = json["waitForReplicas"] {
                waitForReplicas = try DaemonConfiguration.integer(replicas, "cluster.waitForReplicas", in: 0...16)
            }
            if let wait = json["waitTimeoutMilliseconds"] {
                waitTimeoutMilliseconds = try DaemonConfiguration.integer(wait, "cluster.waitTimeoutMilliseconds", in: 10...30_000)
            }
            try readShards(json)
        }
    }
}
