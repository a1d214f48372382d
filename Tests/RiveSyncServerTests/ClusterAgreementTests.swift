import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the nodes of a cluster share beyond the log's records (protocol/CLUSTER.md §1.5): one
/// configuration (a node with another refuses to start), files a client loads (a `file`
/// entry every node applies), and gauges that count each node's own work.
@Suite(.serialized) struct ClusterAgreementTests {
    @Test func aNodeWithAnotherConfigurationRefusesToStartNamingTheDifference() async throws {
        try await stopping(try await RedisServerProcess.start()) { redis in
            let first = try await DaemonProcess.start([
                "--config", try ClusterNodes.configuration(redis: redis.url, leaseMilliseconds: 5000),
            ])
            defer { first.stop() }
            let other = try ClusterNodes.configuration(
                redis: redis.url, leaseMilliseconds: 5000,
                settings: [("instances", [["name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Dark"]])])
            do {
                let second = try await offThePool { try DaemonProcess(["--config", other]) }
                await second.stopped()
                Issue.record("a node with another instance started:\n\(second.stderr)")
            } catch DaemonProcess.DaemonError.didNotStart(let log) {
                #expect(log.contains("differ from the cluster's"), "\(log)")
                #expect(log.contains(#"instances[0].instance: \"Dark\" here, \"Light\" in the cluster"#), "\(log)")
            }
            // The same configuration joins.
            let same = try await DaemonProcess.start([
                "--config", try ClusterNodes.configuration(redis: redis.url, leaseMilliseconds: 5000),
            ])
            #expect(await same.stopped() == 0)
        }
    }

    @Test func aFileLoadedOnOneNodeServesOnEveryNode() async throws {
        try await stopping(try await ClusterNodes.start(count: 2, settings: [("allowFileUploads", true), ("snapshotEvery", 10)])) {
            cluster in
            let onA = try await TestClient.connected(to: cluster.node(0))
            let onB = try await TestClient.connected(to: cluster.node(1))
            let schema = try JSONParser().parse(
                try String(contentsOfFile: DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json", encoding: .utf8))
            let loaded = try await onA.request(["type": "loadFile", "name": "extra", "schema": schema])
            #expect(loaded["type"] == "files", "\(loaded.jsonText)\n\(cluster.logs)")
            let names = loaded["files"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
            #expect(names?.contains("extra") == true, "\(loaded.jsonText)")
            // Node B applied the file entry: a state machine of it created there serves on A too.
            try await waitUntil("node B to have file 'extra'") {
                let files = try await onB.request(["type": "listFiles"])["files"]?.arrayValue ?? []
                return files.contains { $0["name"] == "extra" }
            }
            let created = try await onB.request([
                "type": "createStateMachine", "file": "extra", "name": "stage", "artboard": "Character",
            ])
            #expect(created["type"] == "target", "\(created.jsonText)")
            try await waitUntil("node A to know 'stage'") {
                try await onA.request(["type": "get", "target": "stage", "path": "mood"])["type"] == "value"
            }
            #expect(try await onA.request(["type": "subscribe", "target": "stage"])["type"] == "snapshot")
            var seq = 0
            for mood in 1...12 {
                let ack = try await onA.request(["type": "set", "target": "stage", "path": "mood", "value": .number(Double(mood))])
                #expect(ack["type"] == "ack", "\(ack.jsonText)")
                seq = ack["seq"]?.intValue ?? -1
            }
            let digests = [try await cluster.digest(of: "stage", at: seq, on: 0), try await cluster.digest(of: "stage", at: seq, on: 1)]
            #expect(digests[0] == digests[1])
            #expect(try await onB.request(["type": "loadFile", "name": "extra", "schema": schema])["code"] == "file_exists")

            // A node started after the snapshots has the loaded file from them.
            let added = try await offThePool { try cluster.addNode() }
            #expect(try await cluster.digest(of: "stage", at: seq, on: added) == digests[0], "\(cluster.node(added).stderr)")
        }
    }

    /// An asset uploaded to one node may be set on any node, also one started later.
    @Test func anAssetUploadedToOneNodeIsKnownOnEveryNode() async throws {
        try await stopping(try await ClusterNodes.start(count: 2, settings: [("allowFileUploads", true)])) { cluster in
            let onA = try await TestClient.connected(to: cluster.node(0))
            let onB = try await TestClient.connected(to: cluster.node(1))
            let schema: JSONValue = [
                "viewModels": [["name": "Card", "properties": [["name": "blob", "type": "assetBlob"]]]],
                "artboards": [["name": "Card", "viewModel": "Card", "stateMachines": ["main"], "defaultStateMachine": "main"]],
                "assets": [],
            ]
            #expect(try await onA.request(["type": "loadFile", "name": "cards", "schema": schema])["type"] == "files")
            let created = try await onA.request(["type": "createStateMachine", "file": "cards", "name": "card", "artboard": "Card"])
            #expect(created["type"] == "target", "\(created.jsonText)")
            let unknown: JSONValue = [
                "id": .string("sha256:" + String(repeating: "0", count: 64)), "bytes": 3, "mediaType": "application/octet-stream",
            ]
            try await waitUntil("node B to know 'card'") {
                try await onB.request(["type": "get", "target": "card", "path": "blob"])["type"] == "value"
            }
            let refused = try await onB.request(["type": "set", "target": "card", "path": "blob", "value": unknown])
            #expect(refused["code"] == "invalid_asset", "an asset nobody uploaded: \(refused.jsonText)")
            let uploaded = try await onA.request([
                "type": "upload", "kind": "blob", "data": .string(Data([1, 2, 3]).base64EncodedString()),
            ])
            let asset = try #require(uploaded["asset"], "\(uploaded.jsonText)")
            // Node B accepts it once it has applied the `asset` entry (CLUSTER.md §1): until
            // then, and only then, the set is refused as an asset it does not know.
            try await waitUntil("node B to accept the asset node A received") {
                let set = try await onB.request(["type": "set", "target": "card", "path": "blob", "value": asset])
                if set["type"] == "ack" { return true }
                #expect(set["code"] == "invalid_asset", "node B refuses only what it has not applied yet: \(set.jsonText)")
                return set["code"] != "invalid_asset"
            }
            let read = try await onB.request(["type": "get", "target": "card", "path": "blob"])
            #expect(read["value"]?["id"] == asset["id"], "\(read.jsonText)")
            let added = try await offThePool { try cluster.addNode() }
            let onC = try await TestClient.connected(to: cluster.node(added))
            let again = try await onC.request(["type": "set", "target": "card", "path": "blob", "value": asset])
            #expect(again["type"] == "ack", "a node started later knows it too: \(again.jsonText)")
        }
    }

    @Test func commandsQueuedCountsOnlyTheNodesOwnCommands() async throws {
        try await stopping(try await ClusterNodes.start(count: 2)) { cluster in
            let onA = try await TestClient.connected(to: cluster.node(0))
            var seq = 0
            for index in 0..<20 {
                let ack = try await onA.request(["type": "set", "target": "lobby", "path": "title", "value": .string("title \(index)")])
                #expect(ack["type"] == "ack", "\(ack.jsonText)")
                seq = ack["seq"]?.intValue ?? -1
            }
            _ = try await cluster.digest(of: "lobby", at: seq, on: 1)
            for index in 0..<2 {
                let (body, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(cluster.node(index).port)/metrics")!)
                let metrics = String(decoding: body, as: UTF8.self)
                let line = metrics.split(separator: "\n").first { $0.hasPrefix("rivesync_commands_queued ") }
                #expect(line == "rivesync_commands_queued 0", "node \(index): \(String(describing: line))")
                let applied = metrics.split(separator: "\n").first { $0.hasPrefix("rivesync_cluster_entries_applied_total ") }
                #expect(applied != nil, "node \(index) is a cluster node")
            }
        }
    }
}
