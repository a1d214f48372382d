import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import RiveSyncTransport

/// A test cluster: one `redis-server` and `count` rivesyncd nodes on loopback, each serving
/// the demo (`--demo --redis URL`) on its own port. Nodes can be killed and started again.
final class ClusterNodes: @unchecked Sendable {
    let redis: RedisServerProcess
    private let nodes: Locked<[DaemonProcess]>
    let extraArguments: [String]

    init(count: Int, arguments: [String] = []) throws {
        redis = try RedisServerProcess()
        extraArguments = arguments
        var started: [DaemonProcess] = []
        for _ in 0..<count { started.append(try DaemonProcess(["--demo", "--redis", redis.url] + arguments)) }
        nodes = Locked(started)
    }

    var count: Int { nodes.withLock { $0.count } }
    func node(_ index: Int) -> DaemonProcess { nodes.withLock { $0[index] } }
    var urls: [String] { nodes.withLock { $0.map(\.url) } }

    /// `kill -9` of node `index`, then a new node on the same port.
    func crashAndRestart(_ index: Int) throws {
        let old = node(index)
        old.crash()
        let restarted = try DaemonProcess(["--demo", "--redis", redis.url] + extraArguments, port: old.port)
        nodes.withLock { $0[index] = restarted }
    }

    /// Every node's stderr, for failure messages.
    var logs: String {
        nodes.withLock { $0.enumerated().map { "--- node \($0.offset) ---\n\($0.element.stderr)" }.joined(separator: "\n") }
    }

    func stop() {
        for node in nodes.withLock({ $0 }) { node.stop() }
        redis.stop()
    }

    /// The digest of `target` on node `index` once that node is at `seq` (waits for it).
    func digest(of target: String, at seq: Int, on index: Int, seconds: Double = 30) async throws -> String {
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
