import RiveSyncJSON
import RiveSyncServer
import Testing

/// The `cluster` section's shards (protocol/CLUSTER.md §6.1), read without Redis.
@Suite struct ShardConfigurationTests {
    static func cluster(_ section: [(String, JSONValue)]) throws -> DaemonConfiguration.Cluster {
        let configuration = try DaemonConfiguration(
            json: ["auth": ["allowAnonymous": "loopback"], "cluster": .object(section)], baseDirectory: "/")
        return try #require(configuration.cluster)
    }

    static let twoShards: [(String, JSONValue)] = [
        ("redis", "redis://h"), ("shards", [["name": "s1"], ["name": "s2", "redis": "redis://other", "prefix": "x:{two}"]]),
    ]

    @Test func withoutShardsTheClusterIsOneImplicitShard() throws {
        let cluster = try Self.cluster([("redis", "redis://h"), ("prefix", "app")])
        #expect(cluster.allShards == [.init(name: "default", redis: "redis://h", prefix: "app")])
        #expect(cluster.servedShards == cluster.allShards)
        #expect(cluster.shard(ofFile: "anything").name == "default")
    }

    @Test func shardsTakeTheClustersRedisAndAHashTaggedPrefixByDefault() throws {
        let cluster = try Self.cluster(Self.twoShards + [("serves", ["s2"])])
        #expect(cluster.allShards.map(\.prefix) == ["rivesync:{s1}", "x:{two}"])
        #expect(cluster.allShards.map(\.redis) == ["redis://h", "redis://other"])
        #expect(cluster.servedShards.map(\.name) == ["s2"])
        #expect(!cluster.serves(cluster.allShards[0]) && cluster.serves(cluster.allShards[1]))
    }

    /// `fileShards` places a file; any other goes where the FNV-1a hash of its name says, the
    /// same on every node ("room" hashes to the first of two shards, "nope" to the second).
    @Test func aFileGoesToItsNamedShardElseByTheHashOfItsName() throws {
        let cluster = try Self.cluster(Self.twoShards + [("fileShards", ["room": "s2"])])
        #expect(cluster.shard(ofFile: "room").name == "s2")
        #expect(cluster.shard(ofFile: "nope").name == "s2")
        #expect(cluster.shard(ofFile: "demo").name == "s1")
        let unmapped = try Self.cluster(Self.twoShards)
        #expect(unmapped.shard(ofFile: "room").name == "s1")
    }

    @Test(
        arguments: [
            [("shards", JSONValue.array([]))],
            [("shards", [["name": "s1"]])],  // no redis anywhere
            [("redis", "redis://h"), ("shards", [["name": "s1"], ["name": "s1"]])],
            [("redis", "redis://h"), ("shards", [["name": "s1", "prefix": "p"], ["name": "s2", "prefix": "p"]])],
            [("redis", "redis://h"), ("shards", [["name": "s1", "port": 1]])],
            [("redis", "redis://h"), ("shards", [["name": "s1"]]), ("serves", ["s9"])],
            [("redis", "redis://h"), ("shards", [["name": "s1"]]), ("fileShards", ["demo": "s9"])],
            [("redis", "redis://h"), ("url", "http://h/")],
        ] as [[(String, JSONValue)]])
    func badShardSettingsAreRefused(section: [(String, JSONValue)]) {
        #expect(throws: ConfigurationError.self, "\(JSONValue.object(section).jsonText)") { try Self.cluster(section) }
    }
}
