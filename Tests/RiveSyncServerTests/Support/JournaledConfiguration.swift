import Foundation
import RiveSyncJSON
import RiveSyncTestSupport

/// A configuration that loads `files` and keeps its journals in a state directory of its own,
/// for state machine tests that stop a daemon and start another on the same journals.
struct JournaledConfiguration {
    /// The state directory (the configuration file is in it too).
    let state: String
    /// The configuration file's path.
    let path: String

    /// `settings`: more configuration members (`snapshotEvery`, …).
    init(files: JSONValue, settings: [(String, JSONValue)] = []) throws {
        state = try StateMachineDaemonTests.temporaryDirectory()
        path = state + "/config.json"
        let config: JSONValue = .object(
            [("files", files), ("stateDirectory", .string(state)), ("auth", ["allowAnonymous": "loopback"])] + settings)
        try Data(config.serialized()).write(to: URL(fileURLWithPath: path))
    }

    /// The text of every file's journal log.
    func journals() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: state + "/files").map { name in
            try String(contentsOfFile: state + "/files/" + name + "/log", encoding: .utf8)
        }
    }

    /// Deletes the state directory.
    func remove() { try? FileManager.default.removeItem(atPath: state) }
}

/// Runs `body` on three cluster nodes that load `files` (and no configured instance or state
/// machine), with a client connected to each node, on a long lease (they are not about
/// leases, and two of their suites run beside every other test).
func withThreeClusterNodes<T>(
    files: JSONValue, isolation: isolated (any Actor)? = #isolation, _ body: (ClusterNodes, [TestClient]) async throws -> T
) async throws -> T {
    let settings: [(String, JSONValue)] = [("files", files), ("instances", []), ("stateMachines", [])]
    let nodes = try await ClusterNodes.start(count: 3, leaseMilliseconds: ClusterNodes.longLeaseMilliseconds, settings: settings)
    return try await stopping(nodes) { cluster in
        var clients: [TestClient] = []
        for index in 0..<3 { clients.append(try await TestClient.connected(to: cluster.node(index))) }
        return try await body(cluster, clients)
    }
}
