import Foundation
import RiveSyncJSON
import RiveSyncRedis
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

/// A test cluster: one `redis-server` and `count` rivesyncd nodes on loopback, each serving
/// the demo on its own port. Nodes can be killed and started again.
final class ClusterNodes: @unchecked Sendable {
    let redis: RedisServerProcess
    private let nodes: Locked<[DaemonProcess]>
    /// How every node is started (besides `--port`).
    let extraArguments: [String]
    /// A lease for tests that are not about leases: no starved node outlasts it (beside every
    /// other test, a 2-core machine has kept a node from renewing for 4.95 s of a 5 s lease).
    static let longLeaseMilliseconds = 30_000

    /// Starts Redis (with its `appendfsync` policy) and the nodes; with `leaseMilliseconds` or
    /// `settings` (more top-level keys) the nodes read a configuration like `--demo` with a
    /// `cluster` section instead of `--demo --redis`. With `redis`, the nodes use that server
    /// (stopped with them) instead of a new one (`settings` then name it in their `cluster`).
    init(
        count: Int, leaseMilliseconds: Int? = nil, appendfsync: String = "always", settings: [(String, JSONValue)] = [],
        redis existing: RedisServerProcess? = nil
    ) throws {
        redis = try existing ?? RedisServerProcess(appendfsync: appendfsync)
        if leaseMilliseconds != nil || !settings.isEmpty {
            extraArguments = [
                "--config", try Self.configuration(redis: redis.url, leaseMilliseconds: leaseMilliseconds ?? 5000, settings: settings),
            ]
        } else {
            extraArguments = ["--demo", "--redis", redis.url]
        }
        var started: [DaemonProcess] = []
        for _ in 0..<count { started.append(try DaemonProcess(extraArguments)) }
        nodes = Locked(started)
    }

    /// The demo's files and state with a `cluster` section (and `listen.sharePort`).
    static func configuration(
        redis: String, leaseMilliseconds: Int, sharePort: Bool = false, settings: [(String, JSONValue)] = []
    ) throws -> String {
        let config: JSONValue = [
            "listen": ["sharePort": .bool(sharePort)],
            "files": [["name": "demo", "path": .string(DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json")]],
            "instances": [["name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"]],
            "stateMachines": [
                ["name": "character", "file": "demo", "artboard": "Character", "stateMachine": "character", "globals": ["Theme": "theme"]],
                ["name": "lobby", "file": "demo", "artboard": "Lobby", "stateMachine": "lobby", "globals": ["Theme": "theme"]],
            ],
            "auth": ["allowAnonymous": "loopback"],
            "cluster": ["redis": .string(redis), "leaseMilliseconds": .number(Double(leaseMilliseconds))],
        ]
        guard case .object(let members) = config else { return try DaemonProcess.writeConfiguration(config.jsonText) }
        let replaced = Set(settings.map(\.0))
        return try DaemonProcess.writeConfiguration(JSONValue.object(members.filter { !replaced.contains($0.0) } + settings).jsonText)
    }

    var count: Int { nodes.withLock { $0.count } }
    func node(_ index: Int) -> DaemonProcess { nodes.withLock { $0[index] } }
    var urls: [String] { nodes.withLock { $0.map(\.url) } }

    /// `kill -9` of node `index`, then a new node on the same port.
    func crashAndRestart(_ index: Int) throws {
        let old = node(index)
        old.crash()
        let restarted = try DaemonProcess(extraArguments, port: old.port)
        nodes.withLock { $0[index] = restarted }
    }

    /// Starts one more node like the others; returns its index.
    @discardableResult
    func addNode() throws -> Int {
        let added = try DaemonProcess(extraArguments)
        return nodes.withLock { nodes in
            nodes.append(added)
            return nodes.count - 1
        }
    }

    /// A new node in place of node `index` (which has exited or is stopped first).
    func replace(_ index: Int) throws {
        let old = node(index)
        old.stop()
        let started = try DaemonProcess(extraArguments)
        nodes.withLock { $0[index] = started }
    }

    /// A connection to the cluster's Redis.
    func redisConnection() throws -> RedisConnection {
        try RedisConnection(RedisEndpoint(url: redis.url), timeout: .seconds(5))
    }

    /// Kills the Redis client connection named `name` (`CLIENT KILL` of the one `CLIENT LIST`
    /// shows with that name, e.g. `rivesync-append-<node>`, `rivesync-read-<node>`).
    func killRedisClient(named name: String) throws {
        let admin = try redisConnection()
        let clients = try #require(try admin.command(["CLIENT", "LIST"]).string())
        let line = try #require(clients.split(separator: "\n").first { $0.contains("name=\(name) ") }, "\(name) in\n\(clients)")
        let id = try #require(line.split(separator: " ").first { $0.hasPrefix("id=") }?.dropFirst(3))
        #expect(try admin.command(["CLIENT", "KILL", "ID", RedisArgument(String(id))]) == .integer(1))
    }

    /// Every node's stderr, for failure messages.
    var logs: String {
        nodes.withLock { $0.enumerated().map { "--- node \($0.offset) ---\n\($0.element.stderr)" }.joined(separator: "\n") }
    }

    func stop() {
        for node in nodes.withLock({ $0 }) { node.stop() }
        redis.stop()
    }

    /// Starts a cluster as `init` does, on a dispatch thread (not the cooperative pool).
    static func start(
        count: Int, leaseMilliseconds: Int? = nil, appendfsync: String = "always", settings: [(String, JSONValue)] = []
    ) async throws -> ClusterNodes {
        try await offThePool {
            try ClusterNodes(count: count, leaseMilliseconds: leaseMilliseconds, appendfsync: appendfsync, settings: settings)
        }
    }

    /// The digest of `target` on node `index` once that node is at `seq` (waits for it);
    /// `latest`: once every node is at the highest seq any of them is at.
    func digest(of target: String, at seq: Int, on index: Int, latest: Bool = false, seconds: Double = 30) async throws -> String {
        if latest {
            var highest = 0
            for other in 0..<count {
                let probe = try await TestClient.connected(to: node(other))
                defer { probe.close() }
                highest = max(highest, try await probe.request(["type": "digest", "target": .string(target)])["seq"]?.intValue ?? 0)
            }
            return try await digest(of: target, at: highest, on: index, seconds: seconds)
        }
        let client = try await TestClient.connected(to: node(index))
        defer { client.close() }
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let reply = try await client.request(["type": "digest", "target": .string(target)])
            let at = reply["seq"]?.intValue ?? -1
            if at == seq, let digest = reply["digest"]?.stringValue { return digest }
            guard at < seq, Date() < deadline else {
                throw TestClient.Timeout(what: "node \(index) at seq \(seq) of \(target), it is at \(at)")
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}

extension ClusterNodes: StoppedAfterUse {
    func stopAndWait() { stop() }
}

extension ClusterNodes {
    /// Names of the players in `lobby`, as node `index` has them.
    func playerNames(on index: Int) async throws -> [String] {
        let probe = try await TestClient.connected(to: node(index))
        defer { probe.close() }
        return try await PersistenceTests.playerNames(probe)
    }

    /// The node name a node logged when it joined.
    func nodeName(_ index: Int) throws -> String {
        let log = node(index).stderr
        guard let range = log.range(of: #"node=[^ \n]+"#, options: .regularExpression) else {
            throw TestClient.Timeout(what: "a 'joined the cluster' line in\n\(log)")
        }
        return String(log[range].dropFirst("node=".count))
    }
}
