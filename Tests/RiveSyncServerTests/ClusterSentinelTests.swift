import Foundation
import RiveSyncJSON
import RiveSyncRedis
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

/// Redis high availability (protocol/CLUSTER.md §3.6): nodes that find the primary through
/// real Sentinels follow a failover with nothing acked lost, and a primary's
/// `min-replicas-to-write` refuses writes while its replica lags.
@Suite(.serialized) struct ClusterSentinelTests {
    /// A `cluster` section on `redis` that waits for `replicas` replicas.
    static func settings(_ redis: String, waitForReplicas replicas: Int) -> [(String, JSONValue)] {
        [("cluster", ["redis": .string(redis), "leaseMilliseconds": 10000, "waitForReplicas": .number(Double(replicas))])]
    }

    /// The probe's write: on `character`, outside the storm's history of `lobby` (an acked
    /// probe would count there as a command applied without an ack it knows of).
    static func probeWrite(_ value: Int) -> JSONValue {
        ["type": "set", "target": "character", "path": "mood", "value": .number(Double(value))]
    }

    /// Sends probe writes until one is acked: until the replica has synced, a short `WAIT`
    /// timeout refuses them (`storage_failed`), most of all on a busy machine.
    static func firstWriteAcked(_ client: TestClient) async throws {
        var last: JSONValue = .null
        try await waitUntil("a first write acked (last answer \(last.jsonText))", seconds: 30) {
            last = try await client.request(probeWrite(1))
            if last["type"] == "ack" { return true }
            try await Task.sleep(for: .milliseconds(100))
            return false
        }
    }

    /// The time from `since` until a `set` sent to any node is acked (sent again and again,
    /// across refusals and closed connections), as a probe of the cluster's availability.
    static func firstAck(_ cluster: ClusterNodes, since: ContinuousClock.Instant) async throws -> Duration {
        var attempt = 0
        while true {
            attempt += 1
            do {
                let probe = try await TestClient.connected(to: cluster.node(attempt % cluster.count))
                defer { probe.close() }
                while true {
                    let reply = try await probe.request(Self.probeWrite(attempt))
                    if reply["type"] == "ack" { return ContinuousClock.now - since }
                    guard reply["code"] == "storage_failed" else {
                        throw TestClient.Timeout(what: "ack or storage_failed, got \(reply.jsonText)")
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
            } catch let error as TestClient.Closed {
                // A node that lost its lease closes its connections (CLUSTER.md §2.8): try another.
                _ = error
                try await Task.sleep(for: .milliseconds(20))
            }
            guard ContinuousClock.now - since < .seconds(120) else { throw TestClient.Timeout(what: "an ack after the failover") }
        }
    }

    /// A primary, `replicas` replicas and three Sentinels; three nodes with `waitForReplicas`
    /// 1 and writers on every node appending named players. The primary is killed (`kill -9`)
    /// mid stream and Sentinel promotes a replica. With one replica the old primary is started
    /// again (as a supervisor would; Sentinel makes it the new primary's replica, so `WAIT 1`
    /// can be met again); with two the other replica follows the new primary. Afterwards every
    /// acked player is in the list once on every node, and every node has the same digest:
    /// one order. The unavailability window (kill to first ack) is printed, with when the
    /// replica was promoted and when the new primary had a replica again.
    @Test(arguments: [1, 2]) func killingThePrimaryMidStreamLosesNoAckedWrite(replicas: Int) async throws {
        let group = try await offThePool { try RedisSentinelGroup(replicas: replicas) }
        try await stopping(group) { group in
            let url = group.url
            let primary = group.servers[0]
            let cluster = try await offThePool {
                try ClusterNodes(count: 3, settings: Self.settings(url, waitForReplicas: 1), redis: primary)
            }
            try await stopping(cluster) { cluster in
                let figures = Locked("")
                let (clients, seq) = try await ClusterFaultTests.storm(cluster, clients: 6) {
                    try await Task.sleep(for: .seconds(3))
                    let oldPort = try await offThePool { try group.primaryPort() }
                    let old = try group.server(on: oldPort)
                    let killed = ContinuousClock.now
                    await old.crashed()
                    var newPort = oldPort
                    try await waitUntil("a replica promoted by Sentinel\n\(group.sentinelLogs)", seconds: 60) {
                        newPort = try await offThePool { try group.primaryPort() }
                        if newPort != oldPort { return true }
                        try await Task.sleep(for: .milliseconds(50))
                        return false
                    }
                    let promoted = ContinuousClock.now - killed
                    if replicas == 1 { try await old.restarted() }
                    try await waitUntil("a replica of the new primary online\n\(group.sentinelLogs)", seconds: 120) {
                        // The primary as of now: under load Sentinel may fail over once more
                        // (seen: the promoted replica briefly down, the restarted one promoted back).
                        let port = try await offThePool { try group.primaryPort() }
                        if try await offThePool({ try RedisSentinelGroup.info(port: port) }).contains("state=online") { return true }
                        try await Task.sleep(for: .milliseconds(50))
                        return false
                    }
                    let replicated = ContinuousClock.now - killed
                    let window = try await Self.firstAck(cluster, since: killed)
                    figures.withLock {
                        $0 =
                            "replica promoted \(promoted) after the kill, the new primary had a replica again after \(replicated), "
                            + "first ack after \(window)"
                    }
                    try await Task.sleep(for: .seconds(3))
                }
                let acked = clients.flatMap(\.ackedNames)
                #expect(acked.count > 0, "writes were acked")
                let names = try await cluster.playerNames(on: 0)
                let lost = acked.filter { !names.contains($0) }
                #expect(lost.isEmpty, "acked and lost: \(lost.prefix(10))\n\(cluster.logs)")
                let refusals = clients.reduce(0) { $0 + $1.errors.values.reduce(0, +) }
                #expect(Set(clients.flatMap(\.errors.keys)).isSubset(of: ["storage_failed"]), "\(clients.map(\.errors))")
                print(
                    "Sentinel failover (WAIT 1, \(replicas) replicas): \(acked.count) acked writes checked on 3 nodes at seq \(seq), \(lost.count) lost, "
                        + "\(refusals) refused; \(figures.withLock { $0 })")
            }
        }
    }

    /// A primary with `min-replicas-to-write 1` (`min-replicas-max-lag 2`) and one replica,
    /// nodes on `redis://` without `WAIT`, writers on every node. The replica is frozen
    /// (`SIGSTOP`): once its lag passes the bound, a write is refused `storage_failed` naming
    /// `NOREPLICAS` (a definite refusal); thawed, writes ack again. Every acked write is on
    /// every node once, in one order, and no refused one applied (the storm's history check).
    @Test func aLaggingReplicaUnderMinReplicasToWriteGetsWritesRefusedUntilItCatchesUp() async throws {
        let group = try await offThePool {
            try RedisSentinelGroup(
                replicas: 1, primaryArguments: ["--min-replicas-to-write", "1", "--min-replicas-max-lag", "2"], sentinels: false)
        }
        try await stopping(group) { group in
            let primary = group.servers[0]
            let replica = group.servers[1]
            let settings: [(String, JSONValue)] = [("cluster", ["redis": .string(primary.url), "leaseMilliseconds": 30000])]
            let cluster = try await offThePool { try ClusterNodes(count: 2, settings: settings, redis: primary) }
            try await stopping(cluster) { cluster in
                let figures = Locked("")
                let (clients, _) = try await ClusterFaultTests.storm(cluster, clients: 4) {
                    try await Task.sleep(for: .seconds(2))
                    replica.freeze()
                    let frozen = ContinuousClock.now
                    let probe = try await TestClient.connected(to: cluster.node(0))
                    defer { probe.close() }
                    var refusal: JSONValue = .null
                    try await waitUntil("a write refused while the replica lags", seconds: 60) {
                        refusal = try await probe.request(Self.probeWrite(1))
                        if refusal["type"] == "error" { return true }
                        try await Task.sleep(for: .milliseconds(100))
                        return false
                    }
                    #expect(refusal["code"] == "storage_failed", "\(refusal.jsonText)")
                    #expect(refusal["message"]?.stringValue?.contains("NOREPLICAS") == true, "\(refusal.jsonText)")
                    let refused = ContinuousClock.now - frozen
                    replica.thaw()
                    let thawed = ContinuousClock.now
                    var reply: JSONValue = .null
                    try await waitUntil("a write acked once the replica caught up", seconds: 60) {
                        reply = try await probe.request(Self.probeWrite(2))
                        if reply["type"] == "ack" { return true }
                        #expect(reply["code"] == "storage_failed", "\(reply.jsonText)")
                        try await Task.sleep(for: .milliseconds(100))
                        return false
                    }
                    figures.withLock {
                        $0 = "first refusal \(refused) after the freeze, first ack \(ContinuousClock.now - thawed) after the thaw"
                    }
                    try await Task.sleep(for: .seconds(2))
                }
                let acked = clients.flatMap(\.ackedNames)
                let refusals = clients.reduce(0) { $0 + ($1.errors["storage_failed"] ?? 0) }
                #expect(acked.count > 0 && refusals > 0, "acked \(acked.count), refused \(refusals)")
                print(
                    "A lagging replica under min-replicas-to-write: \(acked.count) acked, \(refusals) refused; \(figures.withLock { $0 })")
            }
        }
    }

    /// A `redis-sentinel://` connection reaches the primary (past a Sentinel that is down),
    /// an unknown primary name is a connect failure naming why, and a connection whose server
    /// turned replica (`READONLY`) is broken, so the next one asks Sentinel again.
    @Test func aConnectionFindsThePrimaryThroughSentinelAndLeavesADemotedOne() async throws {
        let group = try await offThePool { try RedisSentinelGroup(replicas: 1) }
        try await stopping(group) { group in
            let (primary, replica) = (group.servers[0].port, group.servers[1].port)
            let down = try DaemonProcess.freePort()
            let ports = group.sentinelPorts.map { "127.0.0.1:\($0)" }.joined(separator: ",")
            let outcome = try await offThePool { () throws -> (port: String?, unknown: String, demoted: String, broken: Bool) in
                let connection = try RedisConnection(
                    RedisEndpoint(url: "redis-sentinel://127.0.0.1:\(down),\(ports)/\(RedisSentinelGroup.primaryName)"),
                    timeout: .seconds(5))
                let port = try connection.command(["CONFIG", "GET", "port"]).array()?.last?.string()
                var unknown = ""
                do {
                    _ = try RedisConnection(RedisEndpoint(url: "redis-sentinel://\(ports)/nosuch"), timeout: .seconds(5))
                } catch {
                    unknown = "\(error)"
                }
                let admin = try RedisConnection(RedisEndpoint(host: "127.0.0.1", port: primary), timeout: .seconds(5))
                try admin.command(["REPLICAOF", "127.0.0.1", RedisArgument(replica)]).expectStatus("OK")
                var demoted = ""
                do { try connection.command(["SET", "k", "v"]) } catch { demoted = "\(error)" }
                return (port, unknown, demoted, connection.isBroken)
            }
            #expect(outcome.port == String(primary))
            #expect(outcome.unknown.contains("knows no primary of that name"), "\(outcome.unknown)")
            #expect(outcome.demoted.contains("READONLY"), "\(outcome.demoted)")
            #expect(outcome.broken, "a connection to a demoted primary is replaced")
        }
    }

    /// The length of the log stream on the server at `url`.
    static func logLength(_ url: String) throws -> Int64 {
        let connection = try RedisConnection(RedisEndpoint(url: url), timeout: .seconds(2))
        defer { connection.close() }
        return try connection.command(["XLEN", "rivesync:log"]).integer()
    }

    /// `waitForReplicas` 0 (the default): an entry is acked as soon as the primary has it, so
    /// a failover to a replica that had not received it loses an acked write (CLUSTER.md §3.6).
    /// The replica is frozen and cut off while a write is acked, the primary killed, the
    /// replica promoted: a node started on it does not have the write.
    @Test func withoutWAITAFailoverLosesAnAckedWrite() async throws {
        let group = try await offThePool { try RedisSentinelGroup(replicas: 1, sentinels: false) }
        try await stopping(group) { group in
            let primary = group.servers[0]
            let replica = group.servers[1]
            let settings: [(String, JSONValue)] = [("cluster", ["redis": .string(primary.url), "leaseMilliseconds": 30000])]
            let cluster = try await offThePool { try ClusterNodes(count: 1, settings: settings, redis: primary) }
            try await stopping(cluster) { cluster in
                let client = try await TestClient.connected(to: cluster.node(0))
                try await Self.firstWriteAcked(client)
                try await waitUntil("the replica holds the first write", seconds: 30) {
                    if try await offThePool({ try Self.logLength(replica.url) >= Self.logLength(primary.url) }) { return true }
                    try await Task.sleep(for: .milliseconds(50))
                    return false
                }
                // Frozen, and cut from the primary (so nothing after this waits in its socket).
                replica.freeze()
                try await offThePool {
                    let connection = try RedisConnection(RedisEndpoint(url: primary.url), timeout: .seconds(2))
                    defer { connection.close() }
                    #expect(try connection.command(["CLIENT", "KILL", "TYPE", "replica"]).integer() == 1)
                }
                #expect(try await client.request(Self.probeWrite(2))["type"] == "ack", "acked without the replica")
                await primary.crashed()
                replica.thaw()
                try await offThePool {
                    let connection = try RedisConnection(RedisEndpoint(url: replica.url), timeout: .seconds(2))
                    defer { connection.close() }
                    try connection.command(["REPLICAOF", "NO", "ONE"]).expectStatus("OK")
                }
                let promoted: [(String, JSONValue)] = [("cluster", ["redis": .string(replica.url), "leaseMilliseconds": 30000])]
                let after = try await offThePool { try ClusterNodes(count: 1, settings: promoted, redis: replica) }
                try await stopping(after) { after in
                    let probe = try await TestClient.connected(to: after.node(0))
                    let mood = try await probe.request(["type": "get", "target": "character", "path": "mood"])
                    #expect(mood["value"] == 1, "the acked write 2 is lost, 1 was replicated: \(mood.jsonText)")
                }
            }
        }
    }

    /// One node on a primary with one replica (no Sentinels), `waitForReplicas` 1: a first
    /// write acked, the replica frozen (`SIGSTOP`), then mood 2 sent as `set` id 100; `body`
    /// gets the cluster, the client and the replica (to thaw).
    static func withAWritePendingOnAFrozenReplica(
        leaseMilliseconds: Int, waitTimeoutMilliseconds: Int,
        _ body: (ClusterNodes, TestClient, RedisServerProcess) async throws -> Void
    ) async throws {
        let group = try await offThePool { try RedisSentinelGroup(replicas: 1, sentinels: false) }
        try await stopping(group) { group in
            let primary = group.servers[0]
            let replica = group.servers[1]
            let cluster: [(String, JSONValue)] = [
                (
                    "cluster",
                    [
                        "redis": .string(primary.url), "leaseMilliseconds": .number(Double(leaseMilliseconds)), "waitForReplicas": 1,
                        "waitTimeoutMilliseconds": .number(Double(waitTimeoutMilliseconds)),
                    ]
                )
            ]
            let nodes = try await offThePool { try ClusterNodes(count: 1, settings: cluster, redis: primary) }
            try await stopping(nodes) { nodes in
                let client = try await TestClient.connected(to: nodes.node(0))
                try await firstWriteAcked(client)
                replica.freeze()
                client.send(["type": "set", "target": "character", "path": "mood", "value": 2, "id": 100])
                try await body(nodes, client, replica)
            }
        }
    }

    /// `waitForReplicas` 1 with the only replica frozen: a write whose `WAIT` times out is
    /// answered `storage_failed` (its entry voided: it applies on no node, CLUSTER.md §3.6), the
    /// node says its state may be stale, a write meanwhile is refused `storage_failed` at once,
    /// and once the replica is thawed the node is fresh, the voided write is still not applied,
    /// and the next write acks.
    /// The `WAIT` timeout is 2 s, not less: the replica stays frozen until the test thaws it, so
    /// only the write after the thaw depends on it, and a replica just woken on a loaded machine
    /// (CI runs the cluster suites side by side) took more than 300 ms to acknowledge it.
    @Test func withTheReplicaFrozenAWriteWhoseWAITTimesOutIsRefusedAndNeverApplies() async throws {
        try await Self.withAWritePendingOnAFrozenReplica(leaseMilliseconds: 30000, waitTimeoutMilliseconds: 2000) {
            cluster, client, replica in
            let pending = try await client.next(where: { $0["id"] == 100 }, what: "the pending write's answer", seconds: 30)
            #expect(pending["code"] == "storage_failed", "\(pending.jsonText)\n\(cluster.logs)")
            let stale = try await client.next(where: { $0["type"] == "freshness" }, what: "freshness false", seconds: 30)
            #expect(stale["fresh"] == false)
            let refused = try await client.request(Self.probeWrite(3))
            #expect(refused["code"] == "storage_failed", "\(refused.jsonText)")
            replica.thaw()
            let fresh = try await client.next(where: { $0["type"] == "freshness" }, what: "freshness true", seconds: 30)
            #expect(fresh["fresh"] == true)
            let unchanged = try await client.request(["type": "get", "target": "character", "path": "mood"])
            #expect(unchanged["value"] == 1, "the voided write applied nowhere: \(unchanged.jsonText)")
            let next = try await client.request(Self.probeWrite(4))
            #expect(next["type"] == "ack", "\(next.jsonText)\n\(cluster.logs)")
            let mood = try await client.request(["type": "get", "target": "character", "path": "mood"])
            #expect(mood["value"] == 4, "\(mood.jsonText)")
        }
    }

    /// `waitForReplicas` 1 with the only replica frozen for longer than the lease: the write
    /// pending on `WAIT` is answered `storage_failed` when its `WAIT` times out, the node ends
    /// its lease a lease later as if Redis had not renewed it and closes its connections
    /// (1001); once the replica is back the voided write has applied nowhere, and the node
    /// rejoins and acks again.
    @Test func aWritePendingOnWAITIsRefusedAndTheNodeClosesAfterTheLease() async throws {
        try await Self.withAWritePendingOnAFrozenReplica(leaseMilliseconds: 2000, waitTimeoutMilliseconds: 200) {
            cluster, client, replica in
            var closed: UInt16?? = nil
            try await waitUntil("the connection closed after the lease", seconds: 60) {
                closed = client.closeCode
                if closed != nil { return true }
                try await Task.sleep(for: .milliseconds(50))
                return false
            }
            #expect(closed == .some(1001), "\(String(describing: closed))")
            let pending = client.takeAll(where: { $0["id"] == 100 })
            #expect(pending.count == 1 && pending.first?["code"] == "storage_failed", "refused before the close: \(pending)")
            replica.thaw()
            var mood: JSONValue = .null
            try await waitUntil("a write acked once the replica is back", seconds: 60) {
                mood = .null
                do {
                    let probe = try await TestClient.connected(to: cluster.node(0))
                    defer { probe.close() }
                    mood = try await probe.request(["type": "get", "target": "character", "path": "mood"])
                    #expect(mood["value"] != 2, "the voided write applied nowhere: \(mood.jsonText)")
                    if try await probe.request(Self.probeWrite(3))["type"] == "ack" { return true }
                } catch let error as TestClient.Closed {
                    _ = error  // closed again while the node rejoins: asked again
                }
                try await Task.sleep(for: .milliseconds(100))
                return false
            }
            #expect(mood["value"] != nil && mood["value"] != 2, "\(mood.jsonText)\n\(cluster.logs)")
        }
    }
}
