import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Redis outage under write load (protocol/CLUSTER.md §3.3): a busy node is fresh and ready
/// again once its reader has applied the log up to its end as of the reconnection, and a write
/// while the node is cut off is answered `storage_failed` at once, the first after it acks.
@Suite(.serialized) struct ClusterOutageTests {
    /// How long after Redis answers again a node must be fresh and ready (the reader retries
    /// every 100 ms and reads 512 entries a round trip; the rest is slack for a loaded machine).
    static let recoveryBoundSeconds = 15.0
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

    /// Writers on every node keep setting the lobby's title (refusals and all) while Redis is
    /// killed and restarted from its AOF: each node tells its subscriber `freshness` true,
    /// answers `/readyz` 200 and shows `rivesync_cluster_reachable 1` again within the bound,
    /// with the writers still going; and they ack again.
    @Test func busyNodesAreFreshAndReadyAgainAfterARedisOutage() async throws {
        try await stopping(try await ClusterNodes.start(count: 2, leaseMilliseconds: 30000)) { cluster in
            var subscribers: [TestClient] = []
            for index in 0..<2 {
                let subscriber = try await TestClient.connected(to: cluster.node(index))
                #expect(try await subscriber.request(["type": "subscribe", "target": "lobby"])["type"] == "snapshot")
                subscribers.append(subscriber)
            }
            let running = Atomic(true)
            let acks = Atomic(0)
            let refusals = Atomic(0)
            let writers = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<4 {
                        let node = cluster.node(index % 2)
                        group.addTask {
                            let writer = try await TestClient.connected(to: node)
                            defer { writer.close() }
                            var count = 0
                            while running.load(ordering: .relaxed) {
                                count += 1
                                let reply = try await writer.request(["type": "set", "target": "lobby", "path": "title", "value": "w\(index)-\(count)"])
                                if reply["type"] == "ack" { acks.add(1, ordering: .relaxed) } else { refusals.add(1, ordering: .relaxed) }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            try await waitUntil("the writers ack") { acks.load(ordering: .relaxed) > 200 }
            await cluster.redis.crashed()
            for subscriber in subscribers {
                let stale = try await subscriber.next(where: { $0["type"] == "freshness" }, what: "freshness false", seconds: 30)
                #expect(stale == ["type": "freshness", "fresh": false], "\(stale.jsonText)")
            }
            try await Task.sleep(for: .seconds(1))
            try await cluster.redis.restarted()
            let restarted = ContinuousClock.now
            let acksAtRestart = acks.load(ordering: .relaxed)
            for (index, subscriber) in subscribers.enumerated() {
                let port = cluster.node(index).port
                let fresh = try await subscriber.next(
                    where: { $0["type"] == "freshness" }, what: "freshness true on node \(index) under write load",
                    seconds: Self.recoveryBoundSeconds)
                #expect(fresh == ["type": "freshness", "fresh": true], "\(fresh.jsonText)")
                var last: (reachable: String?, ready: Int) = (nil, 0)
                try await waitUntil("node \(index) ready, last \(last)", seconds: Self.recoveryBoundSeconds) {
                    last = try await Self.readiness(port)
                    if last.reachable == "1", last.ready == 200 { return true }
                    try await Task.sleep(for: .milliseconds(50))
                    return false
                }
                print("node \(index): fresh, /readyz 200 and reachable 1 \(ContinuousClock.now - restarted) after Redis restarted, under writes")
            }
            try await waitUntil("writes ack again after the outage") { acks.load(ordering: .relaxed) > acksAtRestart + 100 }
            running.store(false, ordering: .relaxed)
            try await writers.value
            print("outage under load: \(acks.load(ordering: .relaxed)) acks, \(refusals.load(ordering: .relaxed)) refusals")
            // The writers were still going when both nodes were ready: nothing waited for a quiet log.
            #expect(acks.load(ordering: .relaxed) > acksAtRestart)
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
                    client.send(["type": "set", "target": "lobby", "path": "title", "value": "during \(attempt)", "id": 1000 + attempt])
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
                let first = try await client.request(["type": "set", "target": "lobby", "path": "title", "value": "after \(outage)"])
                #expect(first["type"] == "ack", "the first write after Redis returned (\(outage)): \(first.jsonText)\n\(cluster.logs)")
            }
        }
    }
}
