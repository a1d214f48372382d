import RiveSyncJSON
import RiveSyncProtocol

/// Where the files and targets of a sharded cluster are (protocol/CLUSTER.md §6), as the
/// connection core knows it: which shard each file belongs to and which shards this node
/// serves (from the configuration), and the nodes serving each shard and the targets of other
/// shards (as the shell last read them from Redis, `ConnectionEvent.shardsRead`). A request
/// for a name this node does not hold is answered from it: `wrong_node` when another shard has
/// the name, else the request's own "no such" error.
public struct ShardPlacement: Sendable, Equatable {
    /// Every shard's name, in configuration order (a file's hash picks among them).
    public var shards: [String]
    /// The shards this node serves.
    public var served: Set<String>
    /// Files placed on a shard by name (configuration `fileShards`).
    public var fileShards: [String: String]
    /// The configuration's targets (state machines and instances) with their files.
    public var configuredTargets: [String: String]
    /// The URLs of the nodes serving each shard, as last read.
    public var nodes: [String: [String]]
    /// Targets clients created on shards this node does not serve → their shard, as last read.
    public var targets: [String: String]

    public init(
        shards: [String], served: Set<String>, fileShards: [String: String], configuredTargets: [String: String],
        nodes: [String: [String]] = [:], targets: [String: String] = [:]
    ) {
        self.shards = shards
        self.served = served
        self.fileShards = fileShards
        self.configuredTargets = configuredTargets
        self.nodes = nodes
        self.targets = targets
    }

    /// The index in `shards` of the shard a file belongs to, the same on every node: its entry
    /// in `fileShards`, else the one the name's FNV-1a hash picks (so a file a client loads
    /// needs no agreement between nodes).
    public static func shardIndex(ofFile name: String, shards: [String], fileShards: [String: String]) -> Int {
        if let named = fileShards[name], let index = shards.firstIndex(of: named) { return index }
        return Int(nameHash(name) % UInt64(max(shards.count, 1)))
    }

    /// The 64-bit FNV-1a hash of a name's UTF-8 bytes (stable across nodes, builds and
    /// platforms, unlike `Hasher`).
    public static func nameHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The shard of a file.
    public func shard(ofFile name: String) -> String {
        shards[Self.shardIndex(ofFile: name, shards: shards, fileShards: fileShards)]
    }

    /// `wrong_node` for a file of a shard this node does not serve; nil when it serves it.
    public func elsewhere(file name: String) -> WireError? {
        let shard = shard(ofFile: name)
        return served.contains(shard) ? nil : wrongNode(shard, "file '\(name)'")
    }

    /// `wrong_node` for a target of a shard this node does not serve: a configured target by
    /// its file, else one a client created there as last read; nil when not known elsewhere.
    public func elsewhere(target name: String) -> WireError? {
        let shard: String
        if let file = configuredTargets[name] {
            shard = self.shard(ofFile: file)
        } else if let read = targets[name] {
            shard = read
        } else {
            return nil
        }
        return served.contains(shard) ? nil : wrongNode(shard, "target '\(name)'")
    }

    /// `wrong_node` for `what` of `shard`: its name and the URLs of the nodes serving it.
    public func wrongNode(_ shard: String, _ what: String) -> WireError {
        WireError(
            code: .wrongNode, message: "\(what) is on shard '\(shard)', which this node does not serve",
            details: [("shard", .string(shard)), ("nodes", .array((nodes[shard] ?? []).map(JSONValue.string)))])
    }
}
