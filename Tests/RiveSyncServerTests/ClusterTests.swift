import Foundation
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Nodes of one cluster on one redis-server (protocol/CLUSTER.md §1): the same batches, seqs,
/// epoch and digests everywhere, cursors that resume on another node.
@Suite(.serialized) struct ClusterTests {
    @Test func twoNodesServeOneStateAndACursorResumesOnTheOther() async throws {
        let cluster = try await offThePool { try ClusterNodes(count: 2) }
        defer { cluster.stop() }
        let onA = try await TestClient.connected(to: cluster.node(0))
        let onB = try await TestClient.connected(to: cluster.node(1))
        let welcomeA = try await TestClient(url: cluster.node(0).url).request(["type": "hello", "protocol": [1]])
        let welcomeB = try await TestClient(url: cluster.node(1).url).request(["type": "hello", "protocol": [1]])
        #expect(welcomeA["epoch"] == welcomeB["epoch"], "one epoch for the cluster")
        let snapshot = try await onB.request(["type": "subscribe", "target": "lobby"])
        let start = try #require(snapshot["seq"]?.intValue)
        let created = try await onA.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
        let instance = try #require(created["instance"]?.intValue, "\(created.jsonText)")
        let ack = try await onA.request(["type": "listAppend", "target": "lobby", "path": "players", "instance": .number(Double(instance))])
        #expect(ack["type"] == "ack", "\(ack.jsonText)\n\(cluster.logs)")
        let seq = try #require(ack["seq"]?.intValue)
        #expect(seq == start + 1)
        let batch = try await onB.nextBatch("lobby")
        #expect(batch["seq"]?.intValue == seq, "node B delivers the batch of node A's command with its seq")
        #expect(batch["commands"] == .array([ack["command"] ?? .null]))
        #expect(batch["epoch"] == welcomeA["epoch"])
        let digestA = try await cluster.digest(of: "lobby", at: seq, on: 0)
        let digestB = try await cluster.digest(of: "lobby", at: seq, on: 1)
        #expect(digestA == digestB)

        // A cursor of node A, resumed on node B after more writes through B.
        let reader = try await TestClient.connected(to: cluster.node(0))
        let readerSnapshot = try await reader.request(["type": "subscribe", "target": "lobby"])
        let cursor = try #require(readerSnapshot["seq"]?.intValue)
        reader.close()
        for title in ["one", "two", "three"] {
            let reply = try await onB.request(["type": "set", "target": "lobby", "path": "title", "value": .string(title)])
            #expect(reply["type"] == "ack", "\(reply.jsonText)")
        }
        let resumer = try await TestClient.connected(to: cluster.node(1))
        let resumed = try await resumer.request([
            "type": "subscribe", "target": "lobby", "cursor": ["epoch": welcomeA["epoch"] ?? .null, "seq": .number(Double(cursor))],
        ])
        #expect(resumed["type"] == "subscribed" && resumed["resumed"] == true, "\(resumed.jsonText)")
        var seqs: [Int] = []
        for _ in 0..<3 { seqs.append(try await resumer.nextBatch("lobby")["seq"]?.intValue ?? -1) }
        #expect(seqs == [cursor + 1, cursor + 2, cursor + 3])

        // Each node's /metrics counts its share of the log.
        let (body, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(cluster.node(1).port)/metrics")!)
        let metrics = String(decoding: body, as: UTF8.self)
        func value(_ name: String) -> Double? {
            metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        #expect(value("rivesync_cluster_reachable") == 1, "\(metrics)")
        #expect((value("rivesync_cluster_entries_appended_total") ?? 0) >= 3, "node B appended its three sets")
        #expect((value("rivesync_cluster_entries_applied_total") ?? 0) >= 5, "node B applied every entry")
        #expect((value("rivesync_cluster_log_lag_seconds_count") ?? 0) >= 3)
    }

    /// A transaction through one node reaches a subscriber of another in one batch, with its
    /// authors: the advance record in the shared log carries both (PROTOCOL.md §16, §17).
    @Test func aTransactionThroughOneNodeIsOneBatchOnAnother() async throws {
        let cluster = try await offThePool { try ClusterNodes(count: 2) }
        defer { cluster.stop() }
        let onA = try TestClient(url: cluster.node(0).url)
        #expect(try await onA.request(["type": "hello", "protocol": [1], "client": "node-a-writer"])["type"] == "welcome")
        let onB = try await TestClient.connected(to: cluster.node(1))
        #expect(try await onB.request(["type": "subscribe", "target": "theme"])["type"] == "snapshot")
        let ack = try await onA.request([
            "type": "transaction", "target": "theme",
            "commands": [["type": "set", "path": "name", "value": "Dark"], ["type": "set", "path": "background", "value": "#FF121212"]],
        ])
        #expect(ack["type"] == "ack" && ack["commands"]?.arrayValue?.count == 2, "\(ack.jsonText)\n\(cluster.logs)")
        let batch = try await onB.nextBatch("theme")
        #expect(batch["seq"] == ack["seq"] && batch["commands"] == ack["commands"], "\(batch.jsonText)")
        #expect(batch["authors"] == [["client": "node-a-writer"], ["client": "node-a-writer"]])
        let failed = try await onA.request([
            "type": "transaction", "target": "theme",
            "commands": [["type": "set", "path": "name", "value": "Half"], ["type": "set", "path": "name", "value": 7]],
        ])
        #expect(failed["details"]?["commandIndex"] == 1, "\(failed.jsonText)")
        #expect(try await onB.request(["type": "get", "target": "theme", "path": "name"])["value"] == "Dark")
    }

    /// Issue 12's first "done when": 3 nodes, 12 clients doing random sets, fires, list edits
    /// and binds, each session ending at a random point and the next one starting on another
    /// node with the client's cursor. The histories pass the checks and every node ends with
    /// the same digest as every client's replica.
    @Test func threeNodesAndTwelveMovingClientsConverge() async throws {
        let cluster = try await offThePool { try ClusterNodes(count: 3) }
        defer { cluster.stop() }
        let history = Locked(HistoryChecker())
        let urls = cluster.urls
        let clients = (0..<12).map { ClusterWorkloadClient(name: "c\($0)", urls: urls, first: $0 % urls.count, history: history) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { try await client.run(operations: 40) } }
            try await group.waitForAll()
        }
        let probe = try await TestClient.connected(to: cluster.node(0))
        let seq = try #require(try await probe.request(["type": "digest", "target": "lobby"])["seq"]?.intValue)
        let digests = try await (0..<3).asyncMap { try await cluster.digest(of: "lobby", at: seq, on: $0) }
        #expect(Set(digests).count == 1, "every node has one digest at seq \(seq): \(digests)\n\(cluster.logs)")
        for client in clients {
            let replica = try await client.finalDigest(at: seq)
            #expect(replica == digests[0], "\(client.name)'s replica")
        }
        let problems = history.withLock { $0.violations() }
        let acks = history.withLock { $0.events.filter { $0["kind"] == "ok" }.count }
        let (events, sessions, resumes) = (
            history.withLock { $0.events.count }, clients.map(\.sessions).reduce(0, +), clients.map(\.resumes).reduce(0, +)
        )
        print(
            "cluster convergence: 3 nodes, 12 clients, \(sessions) sessions (\(resumes) resumed on another node), \(events) history events, \(acks) acks, final seq \(seq)"
        )
        #expect(seq > 50 && acks > 200, "the workload made progress")
        #expect(resumes > 12, "sessions resumed from cursors on other nodes")
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }

    /// A manual target: commands queued through two nodes, one `advance` request on one of them
    /// applies both (one batch per node), and every node agrees.
    @Test func oneAdvanceAppliesWhatEveryNodeQueued() async throws {
        let cluster = try await offThePool { try ClusterNodes(count: 2) }
        defer { cluster.stop() }
        let onA = try await TestClient.connected(to: cluster.node(0))
        let onB = try await TestClient.connected(to: cluster.node(1))
        let created = try await onA.request([
            "type": "createStateMachine", "file": "demo", "name": "stage", "artboard": "Character", "mode": "manual",
        ])
        #expect(created["type"] == "target", "\(created.jsonText)")
        // B applies the creation from the log: wait until B knows the target.
        try await waitUntil("node B to know the target 'stage'") {
            try await onB.request(["type": "get", "target": "stage", "path": "mood"])["type"] == "value"
        }
        onB.send(["type": "set", "target": "stage", "path": "mood", "value": 7, "id": 501])
        onA.send(["type": "fire", "target": "stage", "path": "success", "id": 502])
        // The set is queued on B before A's advance is asked for (B answers a ping after it).
        #expect(try await onB.request(["type": "ping"])["type"] == "pong")
        #expect(try await onA.request(["type": "ping"])["type"] == "pong")
        let advanced = try await onA.request(["type": "advance", "target": "stage"])
        #expect(advanced["type"] == "advanced", "\(advanced.jsonText)")
        let fired = try await onA.next(where: { $0["id"]?.intValue == 502 }, what: "the fire's ack")
        let set = try await onB.next(where: { $0["id"]?.intValue == 501 }, what: "the set's ack, after A's advance")
        #expect(fired["type"] == "ack" && set["type"] == "ack", "\(fired.jsonText) \(set.jsonText)")
        let seqs = [fired["seq"]?.intValue ?? 0, set["seq"]?.intValue ?? 0]
        #expect(Set(seqs) == [1, 2], "one batch per node: \(seqs)")
        let digests = [try await cluster.digest(of: "stage", at: 2, on: 0), try await cluster.digest(of: "stage", at: 2, on: 1)]
        #expect(digests[0] == digests[1])
        let value = try await onA.request(["type": "get", "target": "stage", "path": "mood"])
        #expect(value["value"] == 7)
    }

    /// A node warns when Redis's persistence can lose acked changes, and only then.
    @Test func aNodeWarnsOfARedisThatMayLoseAckedChanges() async throws {
        let warning = "Redis may lose acknowledged changes in a crash"
        let safe = try await offThePool { try ClusterNodes(count: 1) }
        #expect(!safe.node(0).stderr.contains(warning), "\(safe.logs)")
        safe.stop()
        let risky = try await offThePool { try ClusterNodes(count: 1, appendfsync: "everysec") }
        defer { risky.stop() }
        #expect(risky.node(0).stderr.contains(warning + ": run it with appendonly yes and appendfsync always"), "\(risky.logs)")
        #expect(risky.node(0).stderr.contains("appendfsync=everysec"))
    }

    /// Two nodes on one port (`listen.sharePort`, SO_REUSEPORT): both start, the kernel gives
    /// each some of the connections, and every connection is served.
    @Test func twoNodesShareOnePort() async throws {
        let redis = try await offThePool { try RedisServerProcess() }
        defer { redis.stop() }
        let config = try ClusterNodes.configuration(redis: redis.url, leaseMilliseconds: 5000, sharePort: true)
        let port = try DaemonProcess.freePort()
        let nodes = try await offThePool {
            try (0..<2).map { _ in try DaemonProcess(["--config", config, "--log-level", "debug"], port: port) }
        }
        defer { for node in nodes { node.stop() } }
        for index in 0..<40 {
            let client = try TestClient(url: "ws://127.0.0.1:\(port)/")
            defer { client.close() }
            #expect(try await client.request(["type": "hello", "protocol": [1]])["type"] == "welcome")
            let reply = try await client.request(["type": "set", "target": "lobby", "path": "title", "value": .string("via \(index)")])
            #expect(reply["type"] == "ack", "\(reply.jsonText)")
        }
        let opened = nodes.map { $0.stderr.components(separatedBy: "connection opened").count - 1 }
        #expect(opened.allSatisfy { $0 > 0 } && opened.reduce(0, +) >= 40, "connections per node: \(opened)")
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
