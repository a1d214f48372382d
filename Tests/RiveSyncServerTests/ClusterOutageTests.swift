import Foundation
import RiveSyncJSON
import RiveSyncRedis
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Redis outage under write load (protocol/CLUSTER.md §3.3): a busy node is fresh and ready
/// again once its reader has applied the log up to its end as of the reconnection, and a write
/// while the node is cut off is answered `storage_failed` at once, the first after it acks.
///
/// The writers' acks are counted, not timed: a wait for a number of them fails only when none
/// came for the hang guard's time (a loaded machine got 200 in more than 30 s). How long a node
/// takes to be fresh again is printed, not bounded: CLUSTER.md promises when, not how fast.
@Suite(.serialized) struct ClusterOutageTests {
    /// CLUSTER.md §3.3: a write on a node cut off from the log is refused within its
    /// `timeoutMilliseconds` (2000 by default); the rest is slack for a loaded machine.
    static let refusalBoundSeconds = 5.0

    static func get(_ port: Int, _ path: String) async throws -> (status: Int, body: String) {
        let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: body, as: UTF8.self))
    }

    /// `rivesync_cluster_reachable` and `/readyz`'s status on the node at `port`.
    static func readiness(_ port: Int) async throws -> (reachable: String?, ready: Int) {
        let metrics = try await get(port, "/metrics").body
        let reachable = metrics.split(separator: "\n").first { $0.hasPrefix("rivesync_cluster_reachable ") }
            .map { String($0.dropFirst("rivesync_cluster_reachable ".count)) }
        return (reachable, try await get(port, "/readyz").status)
    }

    /// Clients that keep setting the lobby's title on the given nodes, counting acks and refusals.
    /// A writer whose connection a node closed with 1001 (its lease ended, CLUSTER.md §2.8: on a
    /// loaded machine Redis may not answer a renewal in time) connects again, as clients do, and
    /// is counted in `comebacks`; that set's outcome is unknown and counted in neither.
    final class Writers: Sendable {
        let running = Locked(true)
        let acks = Locked(0)
        let refusals = Locked(0)
        let comebacks = Locked(0)
        private let task: Task<Void, any Error>

        init(on nodes: [DaemonProcess]) {
            let (running, acks, refusals, comebacks) = (running, acks, refusals, comebacks)
            task = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, node) in nodes.enumerated() {
                        group.addTask {
                            var count = 0
                            while running.withLock({ $0 }) {
                                let writer = try await TestClient.connected(to: node)
                                defer { writer.close() }
                                do {
                                    while running.withLock({ $0 }) {
                                        count += 1
                                        let reply = try await writer.request([
                                            "type": "set", "target": "lobby", "path": "title", "value": .string("w\(index)-\(count)"),
                                        ])
                                        if reply["type"] == "ack" { acks.withLock { $0 += 1 } } else { refusals.withLock { $0 += 1 } }
                                    }
                                } catch let closed as TestClient.Closed where closed.code == 1001 {
                                    comebacks.withLock { $0 += 1 }
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }

        /// What to print after the writers stopped: the counts, and the nodes' lease lines when a
        /// writer had to come back.
        func summary(_ cluster: ClusterNodes) -> String {
            let comebacks = comebacks.withLock { $0 }
            let counts = "\(acked) acks, \(refusals.withLock { $0 }) refusals, \(comebacks) connections closed 1001"
            guard comebacks > 0 else { return counts }
            let lines = cluster.logs.split(separator: "\n").filter { $0.contains("lease") || $0.contains("cut off") || $0.hasPrefix("---") }
            return counts + "\n" + lines.joined(separator: "\n")
        }

        var acked: Int { acks.withLock { $0 } }

        func stop() async throws {
            running.withLock { $0 = false }
            try await task.value
        }
    }

    /// Waits until the node at `index` is fresh again (its subscriber told), `/readyz` 200 and
    /// `rivesync_cluster_reachable` 1; prints how long it took.
    static func expectReady(_ cluster: ClusterNodes, _ index: Int, subscriber: TestClient, since: ContinuousClock.Instant, _ what: String)
        async throws
    {
        let port = cluster.node(index).port
        let fresh = try await subscriber.next(
            where: { $0["type"] == "freshness" }, what: "freshness true on node \(index) under write load", seconds: defaultWaitSeconds)
        #expect(fresh == ["type": "freshness", "fresh": true], "\(fresh.jsonText)")
        var last: (reachable: String?, ready: Int) = (nil, 0)
        try await waitUntil("node \(index) ready, last \(last)") {
            last = try await readiness(port)
            if last.reachable == "1", last.ready == 200 { return true }
            try await Task.sleep(for: .milliseconds(50))
            return false
        }
        print("node \(index): fresh, /readyz 200 and reachable 1 \(ContinuousClock.now - since) after \(what), under writes")
    }

    static func subscribed(to node: DaemonProcess) async throws -> TestClient {
        let subscriber = try await TestClient.connected(to: node)
        #expect(try await subscriber.request(["type": "subscribe", "target": "lobby"])["type"] == "snapshot")
        return subscriber
    }

    /// Writers on every node keep setting the lobby's title (refusals and all) while Redis is
    /// killed and restarted from its AOF: each node tells its subscriber `freshness` true,
    /// answers `/readyz` 200 and shows `rivesync_cluster_reachable 1` again, with the writers
    /// still going; and they ack again.
    @Test func busyNodesAreFreshAndReadyAgainAfterARedisOutage() async throws {
        try await stopping(try await ClusterNodes.start(count: 2, leaseMilliseconds: 30000)) { cluster in
            let subscribers = [try await Self.subscribed(to: cluster.node(0)), try await Self.subscribed(to: cluster.node(1))]
            let writers = Writers(on: (0..<4).map { cluster.node($0 % 2) })
            try await waitUntil("200 acks of the writers", progressing: { writers.acked }) { writers.acked > 200 }
            await cluster.redis.crashed()
            for subscriber in subscribers {
                let stale = try await subscriber.next(where: { $0["type"] == "freshness" }, what: "freshness false", seconds: 30)
                #expect(stale == ["type": "freshness", "fresh": false], "\(stale.jsonText)")
            }
            try await Task.sleep(for: .seconds(1))
            try await cluster.redis.restarted()
            let restarted = ContinuousClock.now
            let acksAtRestart = writers.acked
            for index in 0..<2 {
                try await Self.expectReady(cluster, index, subscriber: subscribers[index], since: restarted, "Redis restarted")
            }
            try await waitUntil("100 acks after the outage", progressing: { writers.acked }) { writers.acked > acksAtRestart + 100 }
            try await writers.stop()
            print("Redis outage under load: \(writers.summary(cluster))")
        }
    }

    /// One node's log reader cut off (its Redis connection killed) while another node's writers
    /// keep the log busy, so no read of it ever comes back empty: the node is fresh and ready
    /// again once it has applied the log up to its end as of its reconnection.
    @Test func aNodeCutOffAloneCatchesUpWhileTheLogStaysBusy() async throws {
        try await stopping(try await ClusterNodes.start(count: 2, leaseMilliseconds: 30000)) { cluster in
            let name = try cluster.nodeName(0)
            let subscriber = try await Self.subscribed(to: cluster.node(0))
            let writers = Writers(on: Array(repeating: cluster.node(1), count: 4))
            try await waitUntil("200 acks of the writers", progressing: { writers.acked }) { writers.acked > 200 }
            let killed = ContinuousClock.now
            try await offThePool { try cluster.killRedisClient(named: "rivesync-read-\(name)") }
            let stale = try await subscriber.next(where: { $0["type"] == "freshness" }, what: "freshness false", seconds: 30)
            #expect(stale == ["type": "freshness", "fresh": false], "\(stale.jsonText)")
            let acksBefore = writers.acked
            try await Self.expectReady(cluster, 0, subscriber: subscriber, since: killed, "its reader's connection was killed")
            #expect(writers.acked > acksBefore, "the log stayed busy meanwhile")
            try await writers.stop()
            print("one node cut off under load: \(writers.summary(cluster))")
        }
    }

    /// Redis killed, then frozen: a write on the node cut off gets `storage_failed` (never
    /// silence, never only a close) within the bound, and once the node is fresh again the
    /// first write acks.
    @Test func aWriteDuringAnOutageIsRefusedAndTheFirstAfterItAcks() async throws {
        try await stopping(try await ClusterNodes.start(count: 1, leaseMilliseconds: 30000)) { cluster in
            let client = try await TestClient.connected(to: cluster.node(0))
            #expect(try await client.request(["type": "set", "target": "lobby", "path": "title", "value": "before"])["type"] == "ack")
            for outage in ["killed", "frozen"] {
                if outage == "killed" { await cluster.redis.crashed() } else { cluster.redis.freeze() }
                let stale = try await client.next(where: { $0["type"] == "freshness" }, what: "freshness false (\(outage))", seconds: 30)
                #expect(stale["fresh"] == false)
                for attempt in 0..<3 {
                    let sent = ContinuousClock.now
                    client.send([
                        "type": "set", "target": "lobby", "path": "title", "value": .string("during \(attempt)"),
                        "id": .number(Double(1000 + attempt)),
                    ])
                    let reply = try await client.next(
                        where: { $0["id"]?.intValue == 1000 + attempt }, what: "the reply to a set while Redis is \(outage)",
                        seconds: Self.refusalBoundSeconds)
                    #expect(reply["type"] == "error" && reply["code"] == "storage_failed", "\(reply.jsonText)")
                    #expect(reply["message"]?.stringValue?.contains("unreachable") == true, "\(reply.jsonText)")
                    print("Redis \(outage): a set answered \(reply["code"]?.stringValue ?? "?") in \(ContinuousClock.now - sent)")
                }
                if outage == "killed" { try await cluster.redis.restarted() } else { cluster.redis.thaw() }
                let fresh = try await client.next(where: { $0["type"] == "freshness" }, what: "freshness true (\(outage))", seconds: 30)
                #expect(fresh["fresh"] == true)
                let first = try await client.request([
                    "type": "set", "target": "lobby", "path": "title", "value": .string("after \(outage)"),
                ])
                #expect(first["type"] == "ack", "the first write after Redis returned (\(outage)): \(first.jsonText)\n\(cluster.logs)")
            }
        }
    }
}
