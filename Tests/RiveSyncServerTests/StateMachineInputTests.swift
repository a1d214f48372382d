import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// A state machine's legacy inputs over the wire (PROTOCOL.md §8, §19), on
/// state_machine_triggers.riv (the file of the `legacy_input_triggers` trace: its trigger
/// input `Trigger 1` takes layer 0 from its entry state to state 2, then to state 1, as Rive's
/// runtime recorded): listed with their values, refused when they do not fit, fired like
/// writes (acked after the advance that applies them), journaled and replicated.
@Suite(.serialized) struct StateMachineInputTests {
    static let files = StateMachineDaemonTests.files([("triggers", "state_machine_triggers.riv")])

    static func create(_ client: TestClient) async throws {
        let created = try await client.request([
            "type": "createStateMachine", "file": "triggers", "name": "legacy", "artboard": "main", "mode": "manual",
        ])
        #expect(created["inputs"] == [["name": "Trigger 1", "type": "trigger"]], "\(created.jsonText)")
    }

    /// Layer 0's state index as `listTargets` shows it.
    static func layer(_ client: TestClient) async throws -> Int? {
        let listed = try await client.request(["type": "listTargets"])
        let entry = listed["targets"]?.arrayValue?.first { $0["name"] == "legacy" }
        return entry?["layers"]?.arrayValue?.first?["state"]?.intValue
    }

    /// Advances `legacy` by `elapsed` on `client`, firing `Trigger 1` first when `fire` (its ack
    /// comes after the advance that applies it); returns layer 0's state.
    static func advance(_ client: TestClient, elapsed: Double, firing fire: Bool, id: Int) async throws -> Int? {
        if fire { client.send(["type": "fireInput", "id": .number(Double(id)), "target": "legacy", "name": "Trigger 1"]) }
        let advanced = try await client.request(["type": "advance", "target": "legacy", "elapsed": .number(elapsed)])
        #expect(advanced["type"] == "advanced", "\(advanced.jsonText)")
        if fire {
            let ack = try await client.next(where: { $0["id"]?.intValue == id }, what: "the fireInput's ack")
            #expect(ack["type"] == "ack", "\(ack.jsonText)")
        }
        return try await layer(client)
    }

    /// The trace's steps: 0.1 s, fire and 0.1 s, fire and 0.1 s, 0.5 s; `clients` take turns.
    static func runTrace(_ clients: [TestClient]) async throws -> [Int?] {
        var states: [Int?] = []
        for (index, (elapsed, fire)) in [(0.1, false), (0.1, true), (0.1, true), (0.5, false)].enumerated() {
            states.append(try await advance(clients[index % clients.count], elapsed: elapsed, firing: fire, id: 100 + index))
        }
        return states
    }

    static let riveStates: [Int?] = [3, 2, 1, 1]

    @Test func inputsAreListedCheckedFiredAndReplayedAfterARestart() async throws {
        let journaled = try JournaledConfiguration(files: Self.files)
        defer { journaled.remove() }
        let daemon = try await DaemonProcess.start(["--config", journaled.path])
        let client = try await TestClient.connected(to: daemon)
        try await Self.create(client)
        let mismatch = try await client.request(["type": "setInput", "target": "legacy", "name": "Trigger 1", "value": 1])
        #expect(mismatch["code"] == "type_mismatch", "\(mismatch.jsonText)")
        #expect(mismatch["details"] == ["name": "Trigger 1", "expected": "trigger", "actual": "number"], "\(mismatch.jsonText)")
        let missing = try await client.request(["type": "fireInput", "target": "legacy", "name": "Nope"])
        #expect(missing["code"] == "no_such_input" && missing["details"] == ["target": "legacy", "name": "Nope"], "\(missing.jsonText)")
        #expect(try await Self.runTrace([client]) == Self.riveStates, "\(daemon.stderr)")
        let before = try await StateMachineDaemonTests.observe(client, "legacy")
        #expect(await daemon.stopped() == 0)
        #expect(try journaled.journals().contains { $0.contains(#""op":"fireInput""#) }, "the fires are journaled")
        try await withDaemon(["--config", journaled.path]) { daemon in
            let again = try await TestClient.connected(to: daemon)
            #expect(try await StateMachineDaemonTests.observe(again, "legacy") == before, "\(daemon.stderr)")
        }
    }

    /// Three cluster nodes take turns firing and advancing: every node applies the same inputs
    /// and shows the same seqs, digests and layer states as Rive's runtime.
    @Test func threeClusterNodesApplyTheSameInputs() async throws {
        try await withThreeClusterNodes(files: Self.files) { cluster, clients in
            try await Self.create(clients[0])
            for index in 1..<3 {
                try await waitUntil("node \(index) to know 'legacy'") {
                    try await clients[index].request(["type": "digest", "target": "legacy"])["type"] == "digest"
                }
            }
            #expect(try await Self.runTrace(clients) == Self.riveStates, "\(cluster.logs)")
            let seq = try await StateMachineDaemonTests.observe(clients[0], "legacy").seq
            var digests: [String] = []
            for index in 0..<3 { digests.append(try await cluster.digest(of: "legacy", at: seq, on: index)) }
            #expect(Set(digests).count == 1, "\(digests)")
            for index in 1..<3 {
                try await waitUntil("node \(index) to show Rive's last layer state") { try await Self.layer(clients[index]) == 1 }
            }
        }
    }
}
