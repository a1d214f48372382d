import Foundation
import RiveSyncJSON
import RiveSyncRedis
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

/// The cluster's snapshots and trimming (protocol/CLUSTER.md §2.7) and what a node does when
/// the log is no longer the one it applied (§2.7, §3.5): Redis's memory stays bounded, a new
/// node restores from the snapshot and the stream's tail, and a node behind a trim or facing a
/// log that went back leaves with status 75 for its supervisor, its clients closed with 1001.
@Suite(.serialized) struct ClusterSnapshotTests {
    /// A `set` of lobby's title through `client`, which must be acked.
    static func set(_ client: TestClient, _ title: String) async throws -> Int {
        let reply = try await client.request(["type": "set", "target": "lobby", "path": "title", "value": .string(title)])
        #expect(reply["type"] == "ack", "\(reply.jsonText)")
        return reply["seq"]?.intValue ?? -1
    }

    /// The cluster's epoch, as a node's `welcome` has it.
    static func epoch(of node: DaemonProcess) async throws -> JSONValue {
        let client = try TestClient(url: node.url)
        defer { client.close() }
        return try #require(try await client.request(["type": "hello", "protocol": [1]])["epoch"])
    }

    /// Waits until `node` has exited by itself, and returns its status.
    static func exitStatus(of node: DaemonProcess, seconds: Double = 30) async throws -> Int32 {
        try await waitUntil("node \(node.pid) to exit", seconds: seconds) { !node.isRunning }
        return await node.stopped()
    }

    @Test func snapshotsKeepTheLogShortAndANewNodeRestoresFromThemAndResumesACursor() async throws {
        try await stopping(try await ClusterNodes.start(count: 2, settings: [("snapshotEvery", 10)])) { cluster in
            let redis = try cluster.redisConnection()
            let writers = [try await TestClient.connected(to: cluster.node(0)), try await TestClient.connected(to: cluster.node(1))]
            let epoch = try await Self.epoch(of: cluster.node(0))
            var lengths: [Int64] = []
            var cursor = 0
            var last = 0
            for round in 0..<150 {
                for (index, writer) in writers.enumerated() { last = try await Self.set(writer, "round \(round) on \(index)") }
                if round % 10 == 9 { lengths.append(try redis.command(["XLEN", "rivesync:log"]).integer()) }
                if round == 140 {
                    let reader = try await TestClient.connected(to: cluster.node(0))
                    cursor = try #require(try await reader.request(["type": "subscribe", "target": "lobby"])["seq"]?.intValue)
                    reader.close()
                }
            }
            #expect(last >= 300, "300 sets made 300 batches")
            // 300 records and the joins went in; with a snapshot every 10 records the stream keeps
            // about the records since the last one.
            #expect(lengths.allSatisfy { $0 <= 40 }, "XLEN after every 20 sets: \(lengths)\n\(cluster.logs)")
            let snapshotted = try redis.command(["HKEYS", "rivesync:snapshots"]).array()?.compactMap { try $0.string() }
            #expect(snapshotted == ["demo"], "one snapshot per file: \(String(describing: snapshotted))")
            #expect(try redis.command(["LLEN", "rivesync:trims"]).integer() > 0, "the stream was trimmed")

            // A node started now restores the snapshot and reads the tail only.
            let added = try await offThePool { try cluster.addNode() }
            #expect(cluster.node(added).stderr.contains("restored from the cluster's snapshot"), "\(cluster.node(added).stderr)")
            let digests = [
                try await cluster.digest(of: "lobby", at: last, on: 0), try await cluster.digest(of: "lobby", at: last, on: added),
            ]
            #expect(digests[0] == digests[1], "the new node has the same state at seq \(last)")
            #expect(try await Self.epoch(of: cluster.node(added)) == epoch)

            // A cursor taken on node 0 before the last snapshots resumes exactly on the new node.
            let resumer = try await TestClient.connected(to: cluster.node(added))
            let resumed = try await resumer.request([
                "type": "subscribe", "target": "lobby", "cursor": ["epoch": epoch, "seq": .number(Double(cursor))],
            ])
            #expect(resumed["type"] == "subscribed" && resumed["resumed"] == true, "\(resumed.jsonText)")
            var seqs: [Int] = []
            for _ in cursor..<last { seqs.append(try await resumer.nextBatch("lobby")["seq"]?.intValue ?? -1) }
            #expect(seqs == Array((cursor + 1)...last), "every batch after the cursor, once, in order")

            // And it serves: a write through it reaches node 0.
            let through = try await Self.set(resumer, "through the new node")
            #expect(through == last + 1)
            let after = [
                try await cluster.digest(of: "lobby", at: through, on: 0), try await cluster.digest(of: "lobby", at: through, on: added),
            ]
            #expect(after[0] == after[1])
        }
    }

    @Test func aNodeBehindATrimLeavesWithStatus75AndStartsAgainFromTheSnapshot() async throws {
        try await stopping(try await ClusterNodes.start(count: 2, settings: [("snapshotEvery", 10)])) { cluster in
            let writer = try await TestClient.connected(to: cluster.node(0))
            let watcher = try await TestClient.connected(to: cluster.node(1))
            #expect(try await watcher.request(["type": "subscribe", "target": "lobby"])["type"] == "snapshot")
            _ = try await Self.set(writer, "before the freeze")
            try await stopProcess(cluster.node(1).pid)
            var last = 0
            for round in 0..<60 { last = try await Self.set(writer, "while node 1 is frozen: \(round)") }
            kill(cluster.node(1).pid, SIGCONT)
            let frozen = cluster.node(1)
            let status = try await Self.exitStatus(of: frozen)
            #expect(status == 75, "\(frozen.stderr)")
            #expect(frozen.stderr.contains("entries this node had not applied were trimmed"), "\(frozen.stderr)")
            try await waitUntil("the watcher's connection to close") { watcher.closeCode != nil }
            #expect(watcher.closeCode == .some(1001), "closed with \(String(describing: watcher.closeCode))")

            // Its supervisor starts it again: from the snapshot, with node 0's state.
            try await offThePool { try cluster.replace(1) }
            #expect(cluster.node(1).stderr.contains("restored from the cluster's snapshot"), "\(cluster.node(1).stderr)")
            let digests = [try await cluster.digest(of: "lobby", at: last, on: 0), try await cluster.digest(of: "lobby", at: last, on: 1)]
            #expect(digests[0] == digests[1])
        }
    }

    @Test func aNodeWhoseLogWentBackLeavesAndTheClusterGetsANewEpoch() async throws {
        try await stopping(try await ClusterNodes.start(count: 1, settings: [("snapshotEvery", 10)])) { cluster in
            let old = try await Self.epoch(of: cluster.node(0))
            let writer = try await TestClient.connected(to: cluster.node(0))
            var cursor = 0
            for round in 0..<25 { cursor = try await Self.set(writer, "before the flush: \(round)") }
            // Redis loses everything (as a restart without its AOF would).
            try cluster.redisConnection().command(["FLUSHALL"]).expectStatus("OK")
            let node = cluster.node(0)
            #expect(try await Self.exitStatus(of: node) == 75, "\(node.stderr)")
            #expect(node.stderr.contains("the cluster log went back"), "\(node.stderr)")
            try await waitUntil("the writer's connection to close") { writer.closeCode != nil }
            #expect(writer.closeCode == .some(1001))

            try await offThePool { try cluster.replace(0) }
            let renewed = try await Self.epoch(of: cluster.node(0))
            #expect(renewed != old, "a new epoch, since history was lost")
            let client = try await TestClient.connected(to: cluster.node(0))
            let subscribed = try await client.request([
                "type": "subscribe", "target": "lobby", "cursor": ["epoch": old, "seq": .number(Double(cursor))],
            ])
            #expect(
                subscribed["type"] == "snapshot" && subscribed["resumed"] == false, "an old cursor gets a snapshot: \(subscribed.jsonText)")
        }
    }

    /// Redis lost the newest entries but kept the epoch (a restart under `appendfsync
    /// everysec`, here an `XDEL`): every node that applied them leaves, the first renews the
    /// epoch, and a restarted node serves the new one.
    @Test func nodesThatAppliedLostEntriesLeaveAndTheFirstRenewsTheEpoch() async throws {
        try await stopping(try await ClusterNodes.start(count: 2, settings: [("snapshotEvery", 10)])) { cluster in
            let old = try await Self.epoch(of: cluster.node(0))
            let writer = try await TestClient.connected(to: cluster.node(0))
            var seq = 0
            for round in 0..<5 { seq = try await Self.set(writer, "soon lost: \(round)") }
            _ = try await cluster.digest(of: "lobby", at: seq, on: 1)
            let redis = try cluster.redisConnection()
            let newest = try RedisStreamEntry.entries(try redis.command(["XREVRANGE", "rivesync:log", "+", "-", "COUNT", 2]))
            #expect(newest.count == 2)
            for entry in newest { #expect(try redis.command(["XDEL", "rivesync:log", entry.id.argument]).integer() == 1) }
            for index in 0..<2 {
                let node = cluster.node(index)
                #expect(try await Self.exitStatus(of: node) == 75, "\(node.stderr)")
                #expect(node.stderr.contains("the cluster log went back"), "\(node.stderr)")
            }
            let renewed = try #require(try redis.command(["GET", "rivesync:epoch"]).string())
            #expect(JSONValue.string(renewed) != old, "the epoch was renewed")
            try await offThePool { try cluster.replace(0) }
            #expect(try await Self.epoch(of: cluster.node(0)) == .string(renewed))
            let client = try await TestClient.connected(to: cluster.node(0))
            let subscribed = try await client.request([
                "type": "subscribe", "target": "lobby", "cursor": ["epoch": old, "seq": .number(Double(seq))],
            ])
            #expect(subscribed["type"] == "snapshot" && subscribed["resumed"] == false, "\(subscribed.jsonText)")
        }
    }

    /// The kill storm of `ClusterFaultTests` with a snapshot every 10 records: every restarted
    /// node restores from snapshots taken and trimmed while the others write.
    @Test func killingEachNodeInTurnWhileTheLogIsTrimmedLosesNoAckedWrite() async throws {
        try await stopping(try await ClusterNodes.start(count: 3, settings: [("snapshotEvery", 10)])) { cluster in
            let lengths = Locked<[Int64]>([])
            let (clients, seq) = try await ClusterFaultTests.storm(cluster, clients: 6) {
                for cycle in 0..<6 {
                    try await Task.sleep(nanoseconds: UInt64.random(in: 300_000_000...600_000_000))
                    try await offThePool { try cluster.crashAndRestart(cycle % 3) }
                    let length = try cluster.redisConnection().command(["XLEN", "rivesync:log"]).integer()
                    lengths.withLock { $0.append(length) }
                }
                try await Task.sleep(nanoseconds: 300_000_000)
            }
            let acked = clients.map(\.ackedNames.count).reduce(0, +)
            let restored = cluster.logs.components(separatedBy: "restored from the cluster's snapshot").count - 1
            print(
                "cluster node kills with snapshots every 10 records: \(acked) acked appends, final seq \(seq), XLEN \(lengths.withLock { $0 })"
            )
            #expect(acked > 10, "the workload made progress")
            #expect(restored >= 3, "the restarted nodes restored from snapshots:\n\(cluster.logs)")
            #expect(lengths.withLock { $0 }.allSatisfy { $0 < 200 }, "the stream stays short: \(lengths.withLock { $0 })")
        }
    }
}
