import RiveSyncJSON

extension DaemonConfiguration.Cluster {
    /// One part of the cluster's log (protocol/CLUSTER.md §6): its own Redis keys under
    /// `prefix` (with a hash tag such as `rivesync:{s1}`, so Redis Cluster keeps them in one
    /// slot) on its own Redis, holding the files the cluster places on it and their targets.
    public struct Shard: Sendable, Hashable {
        /// The shard's name in `serves` and `fileShards`, and in `wrong_node` errors.
        public var name: String
        /// Where its log is (`redis://…` or `redis-sentinel://…`, as `cluster.redis`).
        public var redis: String
        /// Prefix of the shard's Redis keys (unique among the shards of one Redis).
        public var prefix: String

        public init(name: String, redis: String, prefix: String) {
            self.name = name
            self.redis = redis
            self.prefix = prefix
        }
    }

    /// The shard of a cluster configured without `shards`: the one log of `redis` and `prefix`.
    public static let implicitShardName = "default"

    /// The cluster's shards, in configuration order: those of `shards`, or the one implicit
    /// shard of `redis` and `prefix`.
    public var allShards: [Shard] {
        shards.isEmpty ? [Shard(name: Self.implicitShardName, redis: redis, prefix: prefix)] : shards
    }

    /// The shards this node serves, in configuration order (`serves`; all when absent).
    public var servedShards: [Shard] {
        guard let serves else { return allShards }
        return allShards.filter { serves.contains($0.name) }
    }

    /// The shard a file belongs to, the same on every node: its entry in `fileShards`, else the
    /// shard the file name's FNV-1a hash picks (so a file a client loads needs no agreement).
    public func shard(ofFile name: String) -> Shard {
        let shards = allShards
        if let named = fileShards[name], let shard = shards.first(where: { $0.name == named }) { return shard }
        return shards[Int(Self.fnv1a(name) % UInt64(shards.count))]
    }

    /// Whether this node serves `shard`.
    public func serves(_ shard: Shard) -> Bool { serves?.contains(shard.name) ?? true }

    /// The 64-bit FNV-1a hash of a name's UTF-8 bytes (stable across nodes, builds and platforms,
    /// unlike `Hasher`).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Reads `shards`, `serves` and `fileShards` of the section into `self`.
    mutating func readShards(_ json: JSONValue) throws(ConfigurationError) {
        if let list = json["shards"] {
            guard let items = list.arrayValue, !items.isEmpty else { throw .invalid("cluster.shards: expected a non-empty array") }
            for (i, item) in items.enumerated() {
                let here = "cluster.shards[\(i)]"
                var problems = ConfigurationProblems()
                problems.refuseUnknownKeys(of: item, section: "cluster.shards[]", here: here)
                try problems.throwIfAny()
                let name = try DaemonConfiguration.string(item["name"], "\(here).name")
                guard !name.isEmpty, !shards.contains(where: { $0.name == name }) else {
                    throw .invalid("\(here).name: must be a non-empty name no other shard has")
                }
                let redis = try item["redis"].map { (v) throws(ConfigurationError) in try DaemonConfiguration.string(v, "\(here).redis") }
                guard let redis = redis ?? (self.redis.isEmpty ? nil : self.redis) else {
                    throw .invalid("\(here).redis: required (or cluster.redis for every shard)")
                }
                let prefix = try item["prefix"].map { (v) throws(ConfigurationError) in try DaemonConfiguration.string(v, "\(here).prefix")
                }
                let shard = Shard(name: name, redis: redis, prefix: prefix ?? "\(self.prefix):{\(name)}")
                guard !shards.contains(where: { $0.redis == shard.redis && $0.prefix == shard.prefix }) else {
                    throw .invalid("\(here).prefix: '\(shard.prefix)' is another shard's on the same Redis")
                }
                shards.append(shard)
            }
        }
        let names = Set(allShards.map(\.name))
        if let list = json["serves"] {
            guard let items = list.arrayValue, !items.isEmpty else {
                throw .invalid("cluster.serves: expected a non-empty array of shard names")
            }
            var served: [String] = []
            for (i, item) in items.enumerated() {
                let name = try DaemonConfiguration.string(item, "cluster.serves[\(i)]")
                guard names.contains(name) else { throw .invalid("cluster.serves[\(i)]: no shard '\(name)' in cluster.shards") }
                served.append(name)
            }
            serves = served
        }
        if let map = json["fileShards"] {
            guard let members = map.objectValue else { throw .invalid("cluster.fileShards: expected an object of file name → shard name") }
            for (file, value) in members {
                let name = try DaemonConfiguration.string(value, "cluster.fileShards.\(file)")
                guard names.contains(name) else { throw .invalid("cluster.fileShards.\(file): no shard '\(name)' in cluster.shards") }
                fileShards[file] = name
            }
        }
        if let url = json["url"] {
            self.url = try DaemonConfiguration.string(url, "cluster.url")
            guard let scheme = self.url?.split(separator: ":").first, scheme == "ws" || scheme == "wss" else {
                throw .invalid("cluster.url: expected a ws:// or wss:// URL")
            }
        }
    }
}
