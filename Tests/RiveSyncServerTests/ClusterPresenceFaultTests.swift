import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Presence shared by cluster nodes under the faults of protocol/CLUSTER.md §2.9: Redis
/// frozen past the lease (local presence goes on, the other node's members leave after lease +
/// grace and join again once Redis answers), and a node frozen by SIGSTOP past its lease (its
/// members leave elsewhere unless they resume there; once it runs again, it closes its
/// connections and ends up with the same members as the others).
///
/// The test bodies are functions, not closures passed to `stopping`: within a closure, Swift
/// 6.3.1 compiles a closure in a `#expect`/`#require` argument under the name of the next
/// closure, and when both have one type, one runs the other's body.
extension ClusterPresenceTests {
    /// A member's entry as `presenceList` and snapshots give it.
    static func entry(_ member: JSONValue, _ state: JSONValue) -> JSONValue { ["member": member, "state": state] }

    /// `node`'s members of `lobby`, asked on a new connection.
    static func members(on node: DaemonProcess) async throws -> JSONValue? {
        let client = try await TestClient.connected(to: node)
        defer { client.close() }
        return try await client.request(["type": "presenceList", "target": "lobby"])["members"]
    }

    /// Waits until `node` lists exactly `expected` (in any order).
    static func waitForMembers(_ expected: [JSONValue], on node: DaemonProcess, _ what: String) async throws {
        var last: JSONValue?
        try await waitUntil("\(what); last \(last?.jsonText ?? "none")\n\(node.stderr.suffix(3000))", seconds: 30) {
            last = try await members(on: node)
            let listed = last?.arrayValue ?? []
            if listed.count == expected.count, expected.allSatisfy(listed.contains) { return true }
            try await Task.sleep(for: .milliseconds(50))
            return false
        }
    }

    /// Waits until `client`'s connection is closed; returns its close code.
    static func closed(_ client: TestClient, _ what: String) async throws -> UInt16? {
        try await waitFor("\(what) to be closed", seconds: 30) { () -> UInt16?? in
            if let code = client.closeCode { return code }
            try await Task.sleep(for: .milliseconds(20))
            return nil
        }
    }

    /// Joins `lobby` on a new connection to `node`; returns the client and the reply.
    static func joined(_ node: DaemonProcess, key: String, _ state: JSONValue) async throws -> (TestClient, JSONValue) {
        let client = try await TestClient.connected(to: node)
        let reply = try await client.request(join(key: key, state))
        guard reply["type"] == "presenceJoined" else { throw TestClient.Timeout(what: "presenceJoined, got \(reply.jsonText)") }
        return (client, reply)
    }

    /// Waits until `client`'s connection is closed with 1001, then joins `lobby` with `key` on a
    /// new connection to `node`; returns the reply (and prints how long the way back took).
    static func comeBack(_ client: TestClient, to node: DaemonProcess, key: String, _ state: JSONValue, _ what: String) async throws
        -> JSONValue
    {
        let code = try await closed(client, what)
        #expect(code == 1001, "\(what)")
        let closedAt = ContinuousClock.now
        let reply = try await joined(node, key: key, state).1
        print("\(what): joined again \(ContinuousClock.now - closedAt) after the close was seen (grace \(grace) s)")
        return reply
    }

    @Test func duringARedisOutagePresenceGoesOnLocallyAndTheOtherNodesMembersLeaveThenComeBack() async throws {
        let (startedRedis, startedNodes, _) = try await offThePool { try Self.start() }
        try await stopping(startedRedis) { redis in
            try await stopping(startedNodes) { nodes in try await Self.redisOutage(redis, nodes) }
        }
    }

    static func redisOutage(_ redis: RedisServerProcess, _ nodes: [DaemonProcess]) async throws {
        let (nodeA, nodeB) = (nodes[0], nodes[1])
        let (ana, anaJoined) = try await joined(nodeA, key: "ana-key-0123456789", ["name": "Ana"])
        let (bo, boJoined) = try await joined(nodeB, key: "bo-key-0123456789ab", ["name": "Bo"])
        let anaMember = try #require(anaJoined["member"])
        let boMember = try #require(boJoined["member"])
        let both = [entry(anaMember, ["name": "Ana"]), entry(boMember, ["name": "Bo"])]
        try await waitForMembers(both, on: nodeA, "both members on node A")
        try await waitForMembers(both, on: nodeB, "both members on node B")

        redis.freeze()
        let frozen = Date()
        // Past the lease, each node closes its connections (§2.8); each client comes back to its
        // node at once and resumes its member there: presence without Redis. The two come back
        // side by side, each as soon as its own connection closed (one after the other, Bo's
        // resume waited for Ana's reconnection too and missed his grace period on a loaded machine).
        async let anaComesBack = comeBack(ana, to: nodeA, key: "ana-key-0123456789", ["name": "Ana"], "Ana's connection to node A")
        async let boComesBack = comeBack(bo, to: nodeB, key: "bo-key-0123456789ab", ["name": "Bo"], "Bo's connection to node B")
        let (anaBack, boBack) = try await (anaComesBack, boComesBack)
        #expect(anaBack["member"] == anaMember && anaBack["resumed"] == true, "\(anaBack.jsonText)")
        #expect(boBack["member"] == boMember && boBack["resumed"] == true, "\(boBack.jsonText)")
        let watcher = try await TestClient.connected(to: nodeA)
        let snapshot = try await watcher.request(["type": "subscribe", "target": "lobby"])
        let (_, cyJoined) = try await joined(nodeA, key: "cy-key-0123456789ab", ["name": "Cy"])
        let cyMember = try #require(cyJoined["member"])
        let cyJoin = try await PresenceDaemonTests.change(of: cyMember, watcher, what: "Cy's join on node A during the outage")
        #expect(cyJoin == ["op": "join", "member": cyMember, "state": ["name": "Cy"]])

        // Node B's member leaves node A's list after lease + grace (and never before the grace).
        let snapshotMembers = snapshot["presence"]?.arrayValue?.compactMap { $0["member"] } ?? []
        if snapshotMembers.contains(boMember) {
            let leave = try await PresenceDaemonTests.change(of: boMember, watcher, what: "Bo's leave on node A during the outage")
            #expect(leave == ["op": "leave", "member": boMember, "reason": "disconnected"])
        }
        try await waitForMembers([entry(anaMember, ["name": "Ana"]), entry(cyMember, ["name": "Cy"])], on: nodeA, "Bo gone on A")
        try await waitForMembers([entry(boMember, ["name": "Bo"])], on: nodeB, "Ana gone on B")
        let took = Date().timeIntervalSince(frozen)
        #expect(took >= Double(grace), "the other node's members stay for the grace period: \(took) s")

        // Redis answers again: the nodes hear each other and the members join again.
        redis.thaw()
        let boAgain = try await PresenceDaemonTests.change(of: boMember, watcher, what: "Bo's join on node A after the outage")
        #expect(boAgain == ["op": "join", "member": boMember, "state": ["name": "Bo"]])
        let all = [entry(anaMember, ["name": "Ana"]), entry(boMember, ["name": "Bo"]), entry(cyMember, ["name": "Cy"])]
        try await waitForMembers(all, on: nodeA, "every member on node A after the outage")
        try await waitForMembers(all, on: nodeB, "every member on node B after the outage")
        #expect(watcher.closeCode == nil, "the watcher that came after the lease loss stays connected")
    }

    @Test func aNodeFrozenPastItsLeaseLosesItsMembersElsewhereAndAgreesWithTheOthersOnceResumed() async throws {
        let (startedRedis, startedNodes, _) = try await offThePool { try Self.start() }
        try await stopping(startedRedis) { _ in
            try await stopping(startedNodes) { nodes in try await Self.frozenNode(nodes) }
        }
    }

    static func frozenNode(_ nodes: [DaemonProcess]) async throws {
        let (nodeA, nodeB) = (nodes[0], nodes[1])
        let watcherB = try await TestClient.connected(to: nodeB)
        _ = try await watcherB.request(["type": "subscribe", "target": "lobby"])
        let (anaOnA, anaJoined) = try await joined(nodeA, key: "ana-key-0123456789", ["name": "Ana"])
        let (cy, cyJoined) = try await joined(nodeA, key: "cy-key-0123456789ab", ["name": "Cy"])
        let anaMember = try #require(anaJoined["member"])
        let cyMember = try #require(cyJoined["member"])
        _ = try await PresenceDaemonTests.change(of: cyMember, watcherB, what: "Cy's join on node B")
        try await waitForMembers([entry(anaMember, ["name": "Ana"]), entry(cyMember, ["name": "Cy"])], on: nodeB, "A's members on B")

        try await stopProcess(nodeA.pid)
        let frozen = Date()
        // Ana comes back on node B within the grace and keeps her member; Cy does not come back.
        let (_, anaOnB) = try await joined(nodeB, key: "ana-key-0123456789", ["name": "Ana", "back": true])
        #expect(anaOnB["member"] == anaMember && anaOnB["resumed"] == true, "\(anaOnB.jsonText)")
        let cyLeave = try await PresenceDaemonTests.change(of: cyMember, watcherB, what: "Cy's leave on node B")
        #expect(cyLeave == ["op": "leave", "member": cyMember, "reason": "disconnected"])
        let took = Date().timeIntervalSince(frozen)
        #expect(took >= Double(grace), "not before the grace period: \(took) s")

        // Resumed, node A finds its lease over and closes its connections; its members' grace
        // periods run out there, and then it lists what node B lists: Ana, as node B has her.
        kill(nodeA.pid, SIGCONT)
        #expect(try await closed(cy, "Cy's connection to the frozen node") == 1001)
        #expect(try await closed(anaOnA, "Ana's old connection to the frozen node") == 1001)
        let watcherA = try await TestClient.connected(to: nodeA)
        let snapshotA = try await watcherA.request(["type": "subscribe", "target": "lobby"])
        if snapshotA["presence"]?.arrayValue?.contains(where: { $0["member"] == cyMember }) == true {
            let leave = try await PresenceDaemonTests.change(of: cyMember, watcherA, what: "Cy's leave on node A after its grace")
            #expect(leave == ["op": "leave", "member": cyMember, "reason": "disconnected"])
        }
        let ana = [entry(anaMember, ["name": "Ana", "back": true])]
        try await waitForMembers(ana, on: nodeA, "Ana as node B has her, alone on node A")
        try await waitForMembers(ana, on: nodeB, "Ana alone on node B")
        let changes = (watcherA.buffered + watcherB.buffered).filter { $0["type"] == "presence" }.compactMap { $0["changes"]?.arrayValue }
        let anaLeaves = changes.joined().filter { $0["member"] == anaMember && $0["op"] == "leave" }
        #expect(anaLeaves.isEmpty, "Ana never leaves: \(anaLeaves.map(\.jsonText))")
    }
}
