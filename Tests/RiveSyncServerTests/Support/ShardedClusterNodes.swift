import Foundation
import RiveSyncJSON
import RiveSyncRedis
import RiveSyncTestSupport
import RiveSyncTransport

/// A sharded test cluster (protocol/CLUSTER.md §6): two `redis-server`s, shard `s1` on the
/// first (file `demo`: instance `theme`, targets `lobby`, `character`) and `s2` on the second
/// (file `demo2`: instance `theme2`, target `lobby2`), and one node per entry of `serves`, each
/// serving those shards on its own port with `cluster.url` announcing it.
final class ShardedClusterNodes: @unchecked Sendable {
    let redis: [RedisServerProcess]
    /// The shards each node serves, by node index.
    let serves: [[String]]
    private let nodes: Locked<[DaemonProcess]>
    private let configurations: [String]

    init(serves: [[String]]) throws {
        let redis = [try RedisServerProcess(), try RedisServerProcess()]
        self.redis = redis
        self.serves = serves
        var configurations: [String] = []
        var started: [DaemonProcess] = []
        do {
            for (index, shards) in serves.enumerated() {
                let port = try DaemonProcess.freePort()
                let path = try Self.configuration(redis: redis.map(\.url), node: "node-\(index)", serves: shards, port: port)
                configurations.append(path)
                started.append(try DaemonProcess(["--config", path], port: port))
            }
        } catch {
            for node in started { node.stop() }
            for server in redis { server.stop() }
            throw error
        }
        self.configurations = configurations
        nodes = Locked(started)
    }

    /// One node's configuration: the same files, instances, state machines and shards on every
    /// node; its own `node`, `serves` and `url`.
    static func configuration(redis: [String], node: String, serves: [String], port: Int) throws -> String {
        let demo = JSONValue.string(DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json")
        let config: JSONValue = [
            "files": [["name": "demo", "path": demo], ["name": "demo2", "path": demo]],
            "instances": [
                ["name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"],
                ["name": "theme2", "file": "demo2", "viewModel": "Theme", "instance": "Light"],
            ],
            "stateMachines": [
                ["name": "character", "file": "demo", "artboard": "Character", "stateMachine": "character", "globals": ["Theme": "theme"]],
                ["name": "lobby", "file": "demo", "artboard": "Lobby", "stateMachine": "lobby", "globals": ["Theme": "theme"]],
                ["name": "lobby2", "file": "demo2", "artboard": "Lobby", "stateMachine": "lobby", "globals": ["Theme": "theme2"]],
            ],
            "allowFileUploads": true,
            "auth": ["allowAnonymous": "loopback"],
            "cluster": [
                "node": .string(node),
                "shards": [["name": "s1", "redis": .string(redis[0])], ["name": "s2", "redis": .string(redis[1])]],
                "fileShards": ["demo": "s1", "demo2": "s2"],
                "serves": .array(serves.map(JSONValue.string)),
                "url": .string("ws://127.0.0.1:\(port)/"),
            ],
        ]
        return try DaemonProcess.writeConfiguration(config.jsonText)
    }

    func node(_ index: Int) -> DaemonProcess { nodes.withLock { $0[index] } }
    var count: Int { serves.count }

    /// `kill -9` of node `index`, then the same node (configuration, port) again.
    func crashAndRestart(_ index: Int) throws {
        let old = node(index)
        old.crash()
        let restarted = try DaemonProcess(["--config", configurations[index]], port: old.port)
        nodes.withLock { $0[index] = restarted }
    }

    /// A connection to shard `index`'s Redis.
    func redisConnection(_ index: Int) throws -> RedisConnection {
        try RedisConnection(RedisEndpoint(url: redis[index].url), timeout: .seconds(5))
    }

    /// Every node's stderr, for failure messages.
    var logs: String {
        nodes.withLock { $0.enumerated().map { "--- node \($0.offset) ---\n\($0.element.stderr)" }.joined(separator: "\n") }
    }

    func stop() {
        for node in nodes.withLock({ $0 }) { node.stop() }
        for server in redis { server.stop() }
    }

    /// Starts the cluster on a dispatch thread (not the cooperative pool).
    static func start(serves: [[String]]) async throws -> ShardedClusterNodes {
        try await offThePool { try ShardedClusterNodes(serves: serves) }
    }
}

extension ShardedClusterNodes: StoppedAfterUse {
    func stopAndWait() { stop() }
}
