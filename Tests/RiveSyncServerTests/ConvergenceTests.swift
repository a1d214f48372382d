import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncModel
import RiveSyncTestSupport
import Testing

/// Eight clients write, fire and edit lists of the demo's `lobby` at once; all of them must
/// receive the same batches (same seqs, same effects, no gaps) and end with the daemon's digest.
/// The whole daemon in-process: the one order is the dispatcher's and the workers' (each
/// connection's order on a socket has its own tests).
@Suite(.serialized) struct ConvergenceTests {
    static let clientCount = 8
    static let commandsPerClient = 120

    @Test func concurrentClientsConvergeOnOneOrder() async throws {
        try await withInProcessDaemon(["--demo"]) { daemon in
            var clients: [ReplicaClient] = []
            for _ in 0..<Self.clientCount { clients.append(try await ReplicaClient(daemon: daemon, file: "demo", target: "lobby")) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, replicaClient) in clients.enumerated() {
                    group.addTask { try await Self.writeRandomly(replicaClient.client, seed: UInt64(index + 1)) }
                }
                try await group.waitForAll()
            }
            let probe = try await daemon.connected()
            let digest = try await probe.request(["type": "digest", "target": "lobby"])
            let seq = try #require(digest["seq"]?.intValue)
            #expect(seq > 10, "the workload produced batches")
            for replicaClient in clients {
                try await replicaClient.catchUp(to: seq)
                #expect(replicaClient.replica.digest == digest["digest"]?.stringValue)
            }
            let reference = clients[0].log
            #expect(reference.map(\.seq) == Array(1...seq), "contiguous seqs from 1")
            for replicaClient in clients.dropFirst() {
                #expect(replicaClient.log.map(\.seq) == reference.map(\.seq))
                #expect(replicaClient.log.map(\.effects) == reference.map(\.effects))
            }
        }
    }

    /// Random commands on shared state: the title, players' positions, triggers, list edits,
    /// the nested host and the shared global theme. Errors (e.g. an index another client just
    /// removed) are expected and fine; every request must get a reply.
    static func writeRandomly(_ client: any RequestingClient, seed: UInt64) async throws {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for i in 0..<commandsPerClient {
            let request: JSONValue
            switch random(9) {
            case 0: request = ["type": "set", "target": "lobby", "path": "title", "value": .string("c\(seed)-\(i)")]
            case 1:
                request = [
                    "type": "set", "target": "lobby", "path": .string("players/\(random(4))/x"), "value": .number(Double(random(100))),
                ]
            case 2: request = ["type": "fire", "target": "lobby", "path": .string("players/\(random(4))/wave")]
            case 3, 4:
                let created = try await client.request([
                    "type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]],
                ])
                let instance = created["instance"] ?? .null
                request =
                    random(2) == 0
                    ? ["type": "listAppend", "target": "lobby", "path": "players", "instance": instance]
                    : [
                        "type": "listInsert", "target": "lobby", "path": "players", "index": .number(Double(random(3))),
                        "instance": instance,
                    ]
            case 5: request = ["type": "listRemoveAt", "target": "lobby", "path": "players", "index": .number(Double(random(3)))]
            case 6:
                request = [
                    "type": "listSwap", "target": "lobby", "path": "players", "index": .number(Double(random(3))),
                    "with": .number(Double(random(3))),
                ]
            case 7: request = ["type": "set", "target": "lobby", "path": "host/name", "value": .string("h\(i)")]
            default:
                request = [
                    "type": "set", "target": "theme", "path": "background", "value": .string(String(format: "#%06X", random(0xFFFFFF))),
                ]
            }
            let reply = try await client.request(request)
            guard reply["type"] == "ack" || reply["type"] == "error" else {
                throw TestClient.Timeout(what: "ack or error, got \(reply.jsonText)")
            }
        }
    }
}
