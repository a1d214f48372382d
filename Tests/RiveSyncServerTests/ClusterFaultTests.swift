import Foundation
import RiveSyncJSON
import RiveSyncRedis
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The faults of protocol/CLUSTER.md §3, each during a write storm of named appends: after
/// it, every acked append is in every node's list exactly once, the clients' histories pass
/// the checks (no seq repeated with other content), and every node and replica has one digest.
@Suite(.serialized) struct ClusterFaultTests {
    /// Runs `clients` writers over the cluster while `fault` runs, then checks the outcome.
    static func storm(
        _ cluster: ClusterNodes, clients count: Int, fault: @escaping @Sendable () async throws -> Void
    ) async throws -> (clients: [ClusterWorkloadClient], seq: Int) {
        let history = Locked(HistoryChecker())
        let running = Locked(true)
        let urls = cluster.urls
        let clients = (0..<count).map {
            ClusterWorkloadClient(
                name: "w\($0)", urls: urls, first: $0 % urls.count, history: history, workload: .namedAppends, toleratesFailures: true)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { try await client.run { running.withLock { $0 } } } }
            group.addTask {
                defer { running.withLock { $0 = false } }
                try await fault()
            }
            try await group.waitForAll()
        }
        let (seq, digests) = try await settled(cluster)
        #expect(Set(digests).count == 1, "one digest on every node at seq \(seq): \(digests)")
        for index in 0..<cluster.count {
            let names = try await cluster.playerNames(on: index)
            for client in clients {
                for name in client.ackedNames where names.filter({ $0 == name }).count != 1 {
                    Issue.record("node \(index): acked \(name) is in the list \(names.filter { $0 == name }.count) times")
                }
            }
        }
        for client in clients {
            let replica = try await client.finalDigest(at: seq)
            #expect(replica == digests[0], "\(client.name)'s replica")
        }
        let problems = history.withLock { $0.violations() }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
        return (clients, seq)
    }

    /// The seq of `lobby` every node comes to after a storm, and each node's digest there. The
    /// storm's last writes may still be reaching the nodes when it ends (one whose client gave up
    /// when its node closed the connection may be in the log), so a node found past the seq
    /// taken starts the round again at its own.
    static func settled(_ cluster: ClusterNodes) async throws -> (seq: Int, digests: [String]) {
        var seq = 0
        round: while true {
            var digests: [String] = []
            for index in 0..<cluster.count {
                var client = try await TestClient.connected(to: cluster.node(index))
                defer { client.close() }
                var reply = JSONValue.null
                try await waitUntil("node \(index) at seq \(seq) of lobby\n\(cluster.logs)") {
                    do {
                        reply = try await client.request(["type": "digest", "target": "lobby"])
                    } catch let closed as TestClient.Closed where closed.code == 1001 {
                        // A node cut off from the log for a whole lease (a failover that outlasts
                        // it) closes its connections with 1001 and rejoins (CLUSTER.md §2.8):
                        // asked again on a new connection.
                        client.close()
                        client = try await TestClient.connected(to: cluster.node(index))
                        return false
                    }
                    return (reply["seq"]?.intValue ?? -1) >= seq
                }
                let at = reply["seq"]?.intValue ?? -1
                if at > seq {
                    seq = at
                    continue round
                }
                digests.append(try #require(reply["digest"]?.stringValue))
            }
            return (seq, digests)
        }
    }

    /// Every entry of the cluster's log stream.
    static func log(_ url: String) throws -> [RedisStreamEntry] {
        let redis = try RedisConnection(RedisEndpoint(url: url), timeout: .seconds(5))
        return try RedisStreamEntry.entries(try redis.command(["XRANGE", "rivesync:log", "-", "+"]))
    }

    @Test func killingEachNodeInTurnLosesNoAckedWrite() async throws {
        try await stopping(try await ClusterNodes.start(count: 3)) { cluster in
            let (clients, seq) = try await Self.storm(cluster, clients: 6) {
                for cycle in 0..<10 {
                    try await Task.sleep(nanoseconds: UInt64.random(in: 200_000_000...500_000_000))
                    try await offThePool { try cluster.crashAndRestart(cycle % 3) }
                }
                try await Task.sleep(nanoseconds: 300_000_000)
            }
            let acked = clients.map(\.ackedNames.count).reduce(0, +)
            print("cluster node kills: 10 kill -9 (each node in turn), \(acked) acked appends checked on 3 nodes, final seq \(seq)")
            #expect(acked > 10, "the workload made progress")
        }
    }

    @Test func redisDownAndRedisKilledLoseNoAckedWrite() async throws {
        try await stopping(try await ClusterNodes.start(count: 2)) { cluster in
            let redis = cluster.redis
            let (clients, seq) = try await Self.storm(cluster, clients: 4) {
                try await Task.sleep(nanoseconds: 700_000_000)
                // Redis unreachable for 5 s (stopped: connections hang, then time out).
                redis.freeze()
                try await Task.sleep(nanoseconds: 5_000_000_000)
                redis.thaw()
                try await Task.sleep(nanoseconds: 1_500_000_000)
                // Redis killed, down for a second, restarted from its append-only file.
                await redis.crashed()
                try await Task.sleep(nanoseconds: 1_000_000_000)
                try await offThePool { try redis.restart() }
                try await Task.sleep(nanoseconds: 2_000_000_000)
            }
            let acked = clients.map(\.ackedNames.count).reduce(0, +)
            let refused = clients.map { $0.errors["storage_failed"] ?? 0 }.reduce(0, +)
            print(
                "cluster Redis outages: 5 s stopped, then kill -9 and AOF restart; \(acked) acked appends checked, \(refused) storage_failed, final seq \(seq)"
            )
            #expect(acked > 10, "the workload made progress")
            #expect(refused > 0, "writes during the outages got the typed error storage_failed\n\(cluster.logs)")
        }
    }

    /// A node stopped past its lease: after SIGCONT it appends nothing with its old token and
    /// acks nothing it was asked while frozen; the cluster went on without it.
    @Test func aFrozenNodeAppendsAndAcksNothingAfterItsLease() async throws {
        try await stopping(try await ClusterNodes.start(count: 2, leaseMilliseconds: 1000)) { cluster in
            let frozenName = try cluster.nodeName(0)
            let onFrozen = try await TestClient.connected(to: cluster.node(0))
            let onOther = try await TestClient.connected(to: cluster.node(1))
            #expect(try await onFrozen.request(["type": "set", "target": "lobby", "path": "title", "value": "before"])["type"] == "ack")
            let url = cluster.redis.url
            let before = try await offThePool { try Self.log(url) }
            let oldTokens = Set(before.filter { $0.value("n") == Array(frozenName.utf8) }.compactMap { $0.value("g") })
            #expect(!oldTokens.isEmpty, "the node appended before it was frozen")

            try await stopProcess(cluster.node(0).pid)
            onFrozen.send(["type": "set", "target": "lobby", "path": "title", "value": "while frozen", "id": 77])
            try await Task.sleep(nanoseconds: 2_500_000_000)
            let during = try await onOther.request(["type": "set", "target": "lobby", "path": "title", "value": "elsewhere"])
            #expect(during["type"] == "ack", "the cluster advances without the frozen node: \(during.jsonText)")
            let afterLease = try #require(try await offThePool { try Self.log(url) }.last).id
            kill(cluster.node(0).pid, SIGCONT)

            // The request sent while frozen: never acked (refused, or its connection closed).
            do {
                let reply = try await onFrozen.next(where: { $0["id"]?.intValue == 77 }, what: "the reply to the frozen set", seconds: 10)
                #expect(reply["type"] == "error" && reply["code"] == "storage_failed", "\(reply.jsonText)")
                print("the set sent to the frozen node: \(reply.jsonText)")
            } catch let closed as TestClient.Closed {
                #expect(closed.code == 1001, "closed with 1001 (cluster lease lost), got \(closed)\n\(cluster.node(0).stderr)")
            }
            // The node rejoins and serves again; nothing it appended after its lease carries an old token.
            let deadline = Date().addingTimeInterval(20)
            var rejoined = false
            while !rejoined, Date() < deadline {
                try await Task.sleep(nanoseconds: 200_000_000)
                guard let client = try? await TestClient.connected(to: cluster.node(0)) else { continue }
                defer { client.close() }
                rejoined = try await client.request(["type": "set", "target": "lobby", "path": "title", "value": "back"])["type"] == "ack"
            }
            #expect(rejoined, "the node serves again after rejoining\n\(cluster.node(0).stderr)")
            let entries = try await offThePool { try Self.log(url) }
            let late = entries.filter { $0.id > afterLease && $0.value("n") == Array(frozenName.utf8) }
            #expect(!late.isEmpty, "the node appended again after rejoining")
            for entry in late {
                #expect(!oldTokens.contains(entry.value("g") ?? []), "entry \(entry.id) appended after the lease with an old token")
            }
            let logged = Date().addingTimeInterval(10)
            while !cluster.node(0).stderr.contains("the cluster lease ended"), Date() < logged {
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            #expect(cluster.node(0).stderr.contains("the cluster lease ended"), "\(cluster.logs)")
            let digests = [
                try await cluster.digest(of: "lobby", at: 0, on: 0, latest: true),
                try await cluster.digest(of: "lobby", at: 0, on: 1, latest: true),
            ]
            #expect(digests[0] == digests[1])
        }
    }

    /// Redis frozen past a node's lease while the node's append is in flight: the lease ends
    /// with that proposal unanswered (it may or may not be in the log), the worker frees its
    /// waiter (its connection is closed), and once Redis answers again the node serves with
    /// nothing left waiting.
    @Test func proposalsDroppedAtALeaseLossFreeTheirWaiters() async throws {
        try await stopping(try await ClusterNodes.start(count: 1, leaseMilliseconds: 1000)) { cluster in
            let node = cluster.node(0)
            let client = try await TestClient.connected(to: node)
            #expect(try await client.request(["type": "set", "target": "lobby", "path": "title", "value": "before"])["type"] == "ack")
            cluster.redis.freeze()
            client.send(["type": "set", "target": "lobby", "path": "title", "value": "while Redis is frozen", "id": 5])
            try await waitUntil("the lease ends while Redis is frozen\n\(node.stderr)") { node.stderr.contains("the cluster lease ended") }
            cluster.redis.thaw()
            do {
                let reply = try await client.next(where: { $0["id"]?.intValue == 5 }, what: "the reply to the set", seconds: 10)
                Issue.record("the set in flight at the lease loss was answered: \(reply.jsonText)")
            } catch let closed as TestClient.Closed {
                #expect(closed.code == 1001, "closed with 1001 (cluster lease lost), got \(closed)")
            }
            // Serving again, and nothing waits for the log: the dropped proposal's waiter is gone.
            var waiting: String?
            try await waitUntil("rivesync_proposals_waiting 0 on a serving node, last \(waiting ?? "none")\n\(node.stderr)") {
                try await Task.sleep(for: .milliseconds(200))
                guard let again = try? await TestClient.connected(to: node) else { return false }
                defer { again.close() }
                guard try await again.request(["type": "set", "target": "lobby", "path": "title", "value": "after"])["type"] == "ack" else {
                    return false
                }
                let (body, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(node.port)/metrics")!)
                waiting = String(decoding: body, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("rivesync_proposals_waiting ") }
                    .map(String.init)
                return waiting == "rivesync_proposals_waiting 0"
            }
        }
    }

    /// Redis frozen (within the lease): the node tells every greeted connection `freshness`
    /// false, and a connection greeted meanwhile gets it right after `welcome`; when Redis
    /// answers again every connection is told `freshness` true, and writes ack and fan out.
    @Test func subscribersAreToldTheStateMayBeStaleWhileTheLogCannotBeRead() async throws {
        try await stopping(try await ClusterNodes.start(count: 2, leaseMilliseconds: 30000)) { cluster in
            let subscriber = try await TestClient.connected(to: cluster.node(0))
            #expect(try await subscriber.request(["type": "subscribe", "target": "lobby"])["type"] == "snapshot")
            let writer = try await TestClient.connected(to: cluster.node(1))
            #expect(try await writer.request(["type": "set", "target": "lobby", "path": "title", "value": "before"])["type"] == "ack")
            _ = try await subscriber.nextBatch("lobby")
            #expect(subscriber.takeAll(where: { $0["type"] == "freshness" }).isEmpty, "no freshness while Redis answers")

            cluster.redis.freeze()
            let stale = try await subscriber.next(
                where: { $0["type"] == "freshness" }, what: "freshness while Redis is frozen", seconds: 30)
            #expect(stale == ["type": "freshness", "fresh": false], "\(stale.jsonText)")
            // A connection greeted while the node is cut off is told at once.
            let late = try TestClient(url: cluster.node(0).url)
            #expect(try await late.request(["type": "hello", "protocol": [1]])["type"] == "welcome")
            let told = try await late.next(where: { $0["type"] == "freshness" }, what: "freshness after welcome", seconds: 10)
            #expect(told == ["type": "freshness", "fresh": false], "\(told.jsonText)")

            cluster.redis.thaw()
            for client in [subscriber, late] {
                let fresh = try await client.next(where: { $0["type"] == "freshness" }, what: "freshness once Redis answers", seconds: 30)
                #expect(fresh == ["type": "freshness", "fresh": true], "\(fresh.jsonText)")
            }
            try await waitUntil("writes ack again after Redis returned\n\(cluster.logs)") {
                let reply = try await writer.request(["type": "set", "target": "lobby", "path": "title", "value": "after"])
                if reply["type"] != "ack" { try await Task.sleep(for: .milliseconds(200)) }
                return reply["type"] == "ack"
            }
            let batch = try await subscriber.next(
                where: { $0["type"] == "batch" && $0["effects"]?.jsonText.contains("after") == true }, what: "the batch after", seconds: 30)
            #expect(batch["target"] == "lobby")
        }
    }
}
