import Foundation
import RiveSyncJSON
import RiveSyncRedis
import RiveSyncTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Presence shared by the nodes of a cluster (protocol/CLUSTER.md §2.9) through real nodes on
/// a real redis-server: a member of node A in the snapshots and presence messages of node B's
/// subscribers, in order with the batches; its leave; a `kill -9` of A; a resume by key on B;
/// and none of it in the cluster's log.
@Suite(.serialized) struct ClusterPresenceTests {
    static let lease = 1000
    /// Long enough for a client whose connection a node closed to connect again, say hello and
    /// join on a loaded machine (with 2 s, one came back too late in a full parallel run at load
    /// 13; `comeBack` prints how long it took).
    static let grace = 5

    /// Redis and two nodes of the demo, with a short lease and grace period.
    static func start() throws -> (RedisServerProcess, [DaemonProcess], String) {
        let redis = try RedisServerProcess()
        let config: JSONValue = [
            "files": [["name": "demo", "path": .string(DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json")]],
            "instances": [["name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"]],
            "stateMachines": [
                ["name": "lobby", "file": "demo", "artboard": "Lobby", "stateMachine": "lobby", "globals": ["Theme": "theme"]]
            ],
            "auth": ["allowAnonymous": "loopback"],
            "limits": ["presenceGraceSeconds": .number(Double(grace))],
            "cluster": ["redis": .string(redis.url), "leaseMilliseconds": .number(Double(lease))],
        ]
        let path = try DaemonProcess.writeConfiguration(config.jsonText)
        do {
            let nodes = [try DaemonProcess(["--config", path]), try DaemonProcess(["--config", path])]
            return (redis, nodes, path)
        } catch {
            redis.stop()
            throw error
        }
    }

    static func join(key: String, _ state: JSONValue) -> JSONValue {
        ["type": "presenceJoin", "target": "lobby", "key": .string(key), "state": state]
    }

    /// The entries of the cluster's log, as Redis holds them.
    static func logEntries(_ redis: RedisServerProcess) throws -> [RedisStreamEntry] {
        let connection = try RedisConnection(RedisEndpoint(url: redis.url), timeout: .seconds(5))
        defer { connection.close() }
        return try RedisStreamEntry.entries(try connection.command(["XRANGE", "rivesync:log", "-", "+"]))
    }

    @Test func aMemberOfNodeAIsSeenOnNodeBInSnapshotsAndInOrderThenItsLeave() async throws {
        let (startedRedis, startedNodes, _) = try await offThePool { try Self.start() }
        try await stopping(startedRedis) { redis in
            try await stopping(startedNodes) { nodes in
                let watcher = try await TestClient.connected(to: nodes[1])
                let start = try await watcher.request(["type": "subscribe", "target": "lobby"])
                let startSeq = try #require(start["seq"]?.intValue)
                let ana = try await TestClient.connected(to: nodes[0])
                let joined = try await ana.request(Self.join(key: "ana-key-0123456789", ["name": "Ana"]))
                let anaMember = try #require(joined["member"], "\(joined.jsonText)")
                let seenJoin = try await PresenceDaemonTests.change(of: anaMember, watcher, what: "Ana's join on node B")
                #expect(seenJoin == ["op": "join", "member": anaMember, "state": ["name": "Ana"]])
                let bo = try await TestClient.connected(to: nodes[1])
                let boMember = try #require(try await bo.request(Self.join(key: "bo-key-0123456789ab", ["name": "Bo"]))["member"])
                #expect(boMember != anaMember, "member names are unique across nodes")
                _ = try await PresenceDaemonTests.change(of: boMember, watcher, what: "Bo's join")

                // Bo's join reaches node A too; then a snapshot on either node lists both.
                let onA = try await TestClient.connected(to: nodes[0])
                _ = try await waitFor("Bo on node A") {
                    let listed = try await onA.request(["type": "presenceList", "target": "lobby"])
                    if listed["members"]?.arrayValue?.count == 2 { return true }
                    try await Task.sleep(nanoseconds: 50_000_000)
                    return nil
                }
                for node in nodes {
                    let third = try await TestClient.connected(to: node)
                    let snapshot = try await third.request(["type": "subscribe", "target": "lobby"])
                    #expect(
                        snapshot["presence"] == [
                            ["member": anaMember, "state": ["name": "Ana"]], ["member": boMember, "state": ["name": "Bo"]],
                        ],
                        "\(snapshot["presence"]?.jsonText ?? "no presence")")
                    third.close()
                }

                // Updates on A, with a write between them, reach B in order and placed by seq.
                for step in 1...3 {
                    let state: JSONValue = ["name": "Ana", "cursor": .number(Double(step))]
                    #expect(
                        try await ana.request(["type": "presenceUpdate", "target": "lobby", "state": state])["type"] == "presenceUpdated")
                    if step == 2 {
                        let ack = try await ana.request(["type": "set", "target": "lobby", "path": "title", "value": "in between"])
                        #expect(ack["type"] == "ack", "\(ack.jsonText)")
                        _ = try await watcher.nextBatch("lobby")
                    }
                    let change = try await PresenceDaemonTests.change(of: anaMember, watcher, what: "update \(step) on node B")
                    #expect(change == ["op": "update", "member": anaMember, "state": state], "\(change.jsonText)")
                }
                #expect(try await ana.request(["type": "presenceLeave", "target": "lobby"])["type"] == "presenceLeft")
                let left = try await PresenceDaemonTests.change(of: anaMember, watcher, what: "Ana's leave on node B")
                #expect(left == ["op": "leave", "member": anaMember, "reason": "left"])
                let listed = try await watcher.request(["type": "presenceList", "target": "lobby"])
                #expect(listed["members"]?.arrayValue?.map { $0["member"] } == [boMember])

                // Presence is never in the cluster's log.
                let entries = try await offThePool { try Self.logEntries(redis) }
                #expect(!entries.isEmpty)
                for entry in entries {
                    let text = entry.fields.map { String(decoding: $0.name + [61] + $0.value, as: UTF8.self) }.joined(separator: " ")
                    #expect(
                        !text.contains("Ana") && !text.contains("Bo\"") && !text.contains("presence") && !text.contains("key-0123"),
                        "\(text)")
                }
                #expect(!entries.contains { String(decoding: $0.value("b") ?? [], as: UTF8.self).contains("cursor") })
                let seen = watcher.takeAll { $0["type"] == "batch" || $0["type"] == "presence" }
                #expect(PresenceDaemonTests.presenceIsPlacedBySeq(seen, from: startSeq), "\(seen.map(\.jsonText))")

                // Node B counts what it read and sent.
                let (body, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(nodes[1].port)/metrics")!)
                let metrics = String(decoding: body, as: UTF8.self)
                func value(_ name: String) -> Double? {
                    metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap {
                        Double($0.split(separator: " ").last ?? "")
                    }
                }
                #expect((value("rivesync_cluster_presence_received_total") ?? 0) >= 5, "\(metrics)")
                #expect((value("rivesync_cluster_presence_sent_total") ?? 0) >= 2)
                #expect(value("rivesync_cluster_presence_failed_total") == 0)
            }
        }
    }

    @Test func aKilledNodesMemberResumesOnTheOtherWithinTheGraceAndTheRestLeave() async throws {
        let (startedRedis, startedNodes, _) = try await offThePool { try Self.start() }
        try await stopping(startedRedis) { redis in
            try await stopping(startedNodes) { nodes in
                let watcher = try await TestClient.connected(to: nodes[1])
                _ = try await watcher.request(["type": "subscribe", "target": "lobby"])
                let ana = try await TestClient.connected(to: nodes[0])
                let anaMember = try #require(try await ana.request(Self.join(key: "ana-key-0123456789", ["name": "Ana"]))["member"])
                let cy = try await TestClient.connected(to: nodes[0])
                let cyMember = try #require(try await cy.request(Self.join(key: "cy-key-0123456789ab", ["name": "Cy"]))["member"])
                _ = try await PresenceDaemonTests.change(of: anaMember, watcher, what: "Ana's join on node B")
                _ = try await PresenceDaemonTests.change(of: cyMember, watcher, what: "Cy's join on node B")

                let killed = Date()
                await nodes[0].crashed()
                // Ana reconnects to B with her key within the grace: the same member, no leave, no join.
                let again = try await TestClient.connected(to: nodes[1])
                let resumed = try await again.request(Self.join(key: "ana-key-0123456789", ["name": "Ana", "back": true]))
                #expect(resumed["member"] == anaMember && resumed["resumed"] == true, "\(resumed.jsonText)")
                let change = try await PresenceDaemonTests.change(of: anaMember, watcher, what: "Ana's update after the resume")
                #expect(change == ["op": "update", "member": anaMember, "state": ["name": "Ana", "back": true]], "\(change.jsonText)")

                // Cy, who did not come back, leaves for B's subscribers, never before the grace
                // period (after lease + grace; how much after is the machine's speed, not checked).
                let leave = try await PresenceDaemonTests.change(of: cyMember, watcher, what: "Cy's leave after node A died")
                #expect(leave == ["op": "leave", "member": cyMember, "reason": "disconnected"])
                let took = Date().timeIntervalSince(killed)
                #expect(took >= Double(Self.grace), "not before the grace period: \(took) s")
                // Ana never left.
                try await Task.sleep(nanoseconds: 500_000_000)
                #expect(
                    !watcher.buffered.contains {
                        $0["type"] == "presence" && $0["changes"]?.arrayValue?.contains { $0["member"] == anaMember } == true
                    })
                let listed = try await watcher.request(["type": "presenceList", "target": "lobby"])
                #expect(listed["members"]?.arrayValue?.map { $0["member"] } == [anaMember])
            }
        }
    }

    @Test func aNodeThatStartsLateLearnsTheMembersAlreadyThere() async throws {
        let (startedRedis, startedNodes, path) = try await offThePool { try Self.start() }
        try await stopping(startedRedis) { redis in
            try await stopping(startedNodes) { nodes in
                let ana = try await TestClient.connected(to: nodes[0])
                let anaMember = try #require(try await ana.request(Self.join(key: "ana-key-0123456789", ["name": "Ana"]))["member"])
                await nodes[1].stopped()
                let startedLate = try await DaemonProcess.start(["--config", path])
                try await stopping(startedLate) { late in
                    let watcher = try await TestClient.connected(to: late)
                    _ = try await waitFor("Ana on the late node") {
                        let listed = try await watcher.request(["type": "presenceList", "target": "lobby"])
                        if listed["members"] == [["member": anaMember, "state": ["name": "Ana"]]] { return true }
                        try await Task.sleep(nanoseconds: 50_000_000)
                        return nil
                    }
                }
            }
        }
    }
}
