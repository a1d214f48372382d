import Foundation
import RiveSyncJSON
import RiveSyncRedis
import RiveSyncTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A cluster of two shards on two redis-servers (protocol/CLUSTER.md §6): node 0 serves `s1`,
/// node 1 `s2`, node 2 both. Each shard's writes are acked and seen by every subscriber of it,
/// a node reads only its shards' logs, a node asked for another shard answers `wrong_node`
/// with where to go, and a node restarted after `kill -9` keeps its shard's acked writes.
@Suite(.serialized) struct ClusterShardTests {
    static let serves = [["s1"], ["s2"], ["s1", "s2"]]

    @Test func eachShardsWritesAreAckedAndSeenByItsSubscribers() async throws {
        try await stopping(try await ShardedClusterNodes.start(serves: Self.serves)) { cluster in
            // s1 through node 0, seen on node 2; s2 through node 1, seen on node 2; and back.
            var lastSeq: [String: Int] = [:]
            for (target, writer, reader) in [("lobby", 0, 2), ("lobby2", 1, 2), ("lobby", 2, 0), ("lobby2", 2, 1)] {
                let onWriter = try await TestClient.connected(to: cluster.node(writer))
                let onReader = try await TestClient.connected(to: cluster.node(reader))
                defer {
                    onWriter.close()
                    onReader.close()
                }
                let snapshot = try await onReader.request(["type": "subscribe", "target": .string(target)])
                #expect(snapshot["type"] == "snapshot", "\(snapshot.jsonText)\n\(cluster.logs)")
                let title = "\(target) from node \(writer)"
                let ack = try await onWriter.request(["type": "set", "target": .string(target), "path": "title", "value": .string(title)])
                #expect(ack["type"] == "ack", "\(ack.jsonText)\n\(cluster.logs)")
                lastSeq[target] = ack["seq"]?.intValue
                let batch = try await onReader.nextBatch(target)
                #expect(batch["seq"] == ack["seq"] && batch["commands"] == .array([ack["command"] ?? .null]), "\(batch.jsonText)")
                let read = try await onReader.request(["type": "get", "target": .string(target), "path": "title"])
                #expect(read["value"] == .string(title))
            }
            // The two nodes of a shard agree on its digest.
            for (target, nodes) in [("lobby", [0, 2]), ("lobby2", [1, 2])] {
                var digests: [JSONValue] = []
                let seq = try #require(lastSeq[target])
                for index in nodes {
                    let probe = try await TestClient.connected(to: cluster.node(index))
                    defer { probe.close() }
                    let reply = try await waitFor("node \(index) at seq \(seq) of \(target)") { () async throws -> JSONValue? in
                        let reply = try await probe.request(["type": "digest", "target": .string(target)])
                        return reply["seq"]?.intValue == seq ? reply : nil
                    }
                    digests.append(reply["digest"] ?? .null)
                }
                #expect(digests.count == 2 && digests[0] == digests[1] && digests[0] != .null, "\(target): \(digests)")
            }
            // Files: each node holds its shards' files only.
            for (index, expected) in [(0, ["demo"]), (1, ["demo2"]), (2, ["demo", "demo2"])] {
                let probe = try await TestClient.connected(to: cluster.node(index))
                defer { probe.close() }
                let files = try await probe.request(["type": "listFiles"])
                let names = files["files"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
                #expect(names == expected, "node \(index): \(files.jsonText)")
            }
        }
    }

    /// A node reads only its shards' logs: each Redis has the blocked `XREAD`s (log and
    /// presence stream) of the two nodes that serve its shard, not of the third; and the
    /// `shard`-labelled metrics of node 0 name `s1` only, node 2's both.
    @Test func aNodeReadsOnlyItsShardsLogs() async throws {
        try await stopping(try await ShardedClusterNodes.start(serves: Self.serves)) { cluster in
            for index in 0..<2 {
                let connection = try cluster.redisConnection(index)
                defer { connection.close() }
                var seen = ""
                try await waitUntil("2 nodes × 2 readers blocked in XREAD on Redis \(index): \(seen)") {
                    seen = try connection.command(["CLIENT", "LIST"]).string() ?? ""
                    return seen.split(separator: "\n").filter { $0.contains(" cmd=xread ") }.count == 4
                }
            }
            let (body, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(cluster.node(0).port)/metrics")!)
            let applied = String(decoding: body, as: UTF8.self).split(separator: "\n").filter {
                $0.hasPrefix("rivesync_cluster_entries_applied_total")
            }
            #expect(applied.count == 1 && applied[0].hasPrefix(#"rivesync_cluster_entries_applied_total{shard="s1"} "#), "\(applied)")
            // Node 2 counts each of its shards apart, its presence relays too.
            let (both, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(cluster.node(2).port)/metrics")!)
            let received = String(decoding: both, as: UTF8.self).split(separator: "\n").filter {
                $0.hasPrefix("rivesync_cluster_presence_received_total")
            }
            #expect(
                received.map { $0.split(separator: " ")[0] } == [
                    #"rivesync_cluster_presence_received_total{shard="s1"}"#, #"rivesync_cluster_presence_received_total{shard="s2"}"#,
                ], "\(received)")
        }
    }

    /// Node 0 (shard s1 only) answers requests for s2 with `wrong_node`, the shard and the URLs
    /// of nodes 1 and 2, which announced them (the `cluster/` conformance cases); a client
    /// following it is served there, and the Python client's `connect_serving` follows it. A
    /// target a client creates on s2 gets `wrong_node` on node 0 too, once s2's nodes listed it.
    @Test func aNodeOfOtherShardsSaysWhereToGo() async throws {
        try await stopping(try await ShardedClusterNodes.start(serves: Self.serves)) { cluster in
            let client = try await TestClient.connected(to: cluster.node(0))
            defer { client.close() }
            let expected = Set([cluster.node(1).url, cluster.node(2).url])
            // Node 0 started before the others announced themselves: it learns of them within a
            // third of the lease.
            let refused = try await waitFor("wrong_node naming nodes 1 and 2") { () async throws -> JSONValue? in
                let reply = try await client.request(["type": "subscribe", "target": "lobby2"])
                #expect(reply["code"] == "wrong_node" && reply["details"]?["shard"] == "s2", "\(reply.jsonText)")
                let nodes = Set(reply["details"]?["nodes"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                return nodes == expected ? reply : nil
            }
            let url = try #require(refused["details"]?["nodes"]?.arrayValue?.first?.stringValue)
            let redirected = try TestClient(url: url)
            defer { redirected.close() }
            #expect(try await redirected.request(["type": "hello", "protocol": [1]])["type"] == "welcome")
            let snapshot = try await redirected.request(["type": "subscribe", "target": "lobby2"])
            #expect(snapshot["type"] == "snapshot" && snapshot["target"] == "lobby2", "\(snapshot.jsonText)")

            // A target a client creates on s2 is told apart too, once its nodes listed it.
            let creator = try await TestClient.connected(to: cluster.node(1))
            defer { creator.close() }
            let created = try await creator.request([
                "type": "createStateMachine", "file": "demo2", "name": "room-x", "artboard": "Lobby", "stateMachine": "lobby",
            ])
            #expect(created["type"] == "target", "\(created.jsonText)")
            _ = try await waitFor("wrong_node for room-x on node 0") { () async throws -> JSONValue? in
                let reply = try await client.request(["type": "subscribe", "target": "room-x"])
                #expect(reply["code"] == "wrong_node" || reply["code"] == "unknown_target", "\(reply.jsonText)")
                return reply["code"] == "wrong_node" && reply["details"]?["shard"] == "s2" ? reply : nil
            }

            // The Python client follows it (`Worker.connect_serving`).
            let python = try PythonScript("follow_wrong_node.py", python: PythonScript.pathPython, arguments: [cluster.node(0).url])
            let status = await python.finish(within: 60)
            #expect(status == 0, "\(python.output)\n\(cluster.logs)")
            let followed = python.output.split(separator: "\n").first { $0.hasPrefix("followed ") }.map { String($0.dropFirst(9)) }
            #expect(followed.map(expected.contains) == true, "\(python.output)")

            let directory = DaemonProcess.packageRoot + "/protocol/conformance/cluster"
            let cases = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
            #expect(!cases.isEmpty)
            for file in cases {
                let json = try JSONParser().parse(try String(contentsOfFile: directory + "/" + file, encoding: .utf8))
                var runner = ConformanceRunner(daemon: cluster.node(0))
                do { try await runner.run(try #require(json["steps"]?.arrayValue)) } catch {
                    Issue.record("\(file): \(error)\n\(cluster.logs)")
                }
            }
        }
    }

    /// An upload through node 2 (both shards) goes into both logs: node 1, of s2 only, accepts
    /// a `set` naming it on a target of s2 (file `other` hashes to s2).
    @Test func anUploadThroughANodeOfBothShardsIsKnownOnEachShardsNodes() async throws {
        try await stopping(try await ShardedClusterNodes.start(serves: Self.serves)) { cluster in
            let onS2 = try await TestClient.connected(to: cluster.node(1))
            let onBoth = try await TestClient.connected(to: cluster.node(2))
            defer {
                onS2.close()
                onBoth.close()
            }
            let schema: JSONValue = [
                "viewModels": [["name": "Card", "properties": [["name": "blob", "type": "assetBlob"]]]],
                "artboards": [["name": "Card", "viewModel": "Card", "stateMachines": ["main"], "defaultStateMachine": "main"]],
                "assets": [],
            ]
            let loaded = try await onS2.request(["type": "loadFile", "name": "other", "schema": schema])
            #expect(loaded["type"] == "files", "\(loaded.jsonText)\n\(cluster.logs)")
            let created = try await onS2.request(["type": "createStateMachine", "file": "other", "name": "card", "artboard": "Card"])
            #expect(created["type"] == "target", "\(created.jsonText)")
            let uploaded = try await onBoth.request([
                "type": "upload", "kind": "blob", "data": .string(Data([1, 2, 3]).base64EncodedString()),
            ])
            let asset = try #require(uploaded["asset"], "\(uploaded.jsonText)")
            let set = try await onS2.request(["type": "set", "target": "card", "path": "blob", "value": asset])
            #expect(set["type"] == "ack", "node 1 knows the asset node 2 received: \(set.jsonText)")
        }
    }

    /// A node of shard s2 killed and started again keeps every write to s2 it acked.
    @Test func aRestartedNodeKeepsItsShardsAckedWrites() async throws {
        try await stopping(try await ShardedClusterNodes.start(serves: Self.serves)) { cluster in
            let writer = try await TestClient.connected(to: cluster.node(1))
            var last: JSONValue = .null
            var lastSeq: JSONValue = .null
            for n in 1...5 {
                last = .string("title \(n)")
                let ack = try await writer.request(["type": "set", "target": "lobby2", "path": "title", "value": last])
                #expect(ack["type"] == "ack", "\(ack.jsonText)\n\(cluster.logs)")
                lastSeq = ack["seq"] ?? .null
            }
            writer.close()
            try await offThePool { try cluster.crashAndRestart(1) }
            let reader = try await TestClient.connected(to: cluster.node(1))
            defer { reader.close() }
            let read = try await reader.request(["type": "get", "target": "lobby2", "path": "title"])
            #expect(read["value"] == last, "\(read.jsonText)\n\(cluster.logs)")
            let digest = try await reader.request(["type": "digest", "target": "lobby2"])
            #expect(digest["seq"] == lastSeq, "\(digest.jsonText)")
            // And it writes again, seen by the other node of s2.
            let other = try await TestClient.connected(to: cluster.node(2))
            defer { other.close() }
            #expect(try await other.request(["type": "subscribe", "target": "lobby2"])["type"] == "snapshot")
            let ack = try await reader.request(["type": "set", "target": "lobby2", "path": "title", "value": "after the restart"])
            #expect(ack["type"] == "ack", "\(ack.jsonText)\n\(cluster.logs)")
            #expect(try await other.nextBatch("lobby2")["seq"] == ack["seq"])
        }
    }
}
