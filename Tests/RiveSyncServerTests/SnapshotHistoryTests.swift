import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// A compaction snapshot keeps a target's recent batches for resuming subscribers. A kept batch
/// may set a value of an instance that was freed before the snapshot was written (a nested view
/// model the target held for a while, kept alive by another target that was then deleted): the
/// daemon still restarts from that snapshot, and a subscriber still resumes across that batch,
/// with and without paths, receiving the same batch it would have received live.
@Suite(.serialized) struct SnapshotHistoryTests {
    @Test func aSnapshotKeepsABatchOfAnInstanceFreedBeforeIt() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let configPath = try PersistenceTests.compactingConfiguration(in: state)

        let daemon = try await DaemonProcess.start(["--config", configPath])
        let client = try await TestClient.connected(to: daemon)
        func acked(_ request: JSONValue) async throws -> JSONValue {
            let reply = try await client.request(request)
            try #require(reply["type"] != "error", "\(request.jsonText) -> \(reply.jsonText)")
            return reply
        }
        func player() async throws -> JSONValue {
            let created = try await acked(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
            return try #require(created["instance"])
        }
        let subscribed = try await acked(["type": "subscribe", "target": "lobby"])
        let epoch = try #require(subscribed["epoch"])
        let from = try #require(subscribed["seq"])
        let watcher = try await TestClient.connected(to: daemon)
        let watching = try await watcher.request(["type": "subscribe", "target": "lobby", "paths": ["host/x", "host/name"]])
        try #require(watching["seq"] == from, "\(watching.jsonText)")

        // `held` is the lobby's host for a while (kept alive by its own target, `holder`).
        let held = try await player()
        _ = try await acked(["type": "publish", "instance": held, "name": "holder"])
        _ = try await acked(["type": "set", "target": "lobby", "path": "host", "value": ["instance": held]])
        _ = try await acked(["type": "set", "target": "lobby", "path": "host/x", "value": 3])
        _ = try await acked(["type": "set", "target": "lobby", "path": "host/name", "value": "held"])
        // Another host; deleting `holder` then frees `held`.
        _ = try await acked(["type": "set", "target": "lobby", "path": "host", "value": ["instance": try await player()]])
        _ = try await acked(["type": "deleteTarget", "target": "holder"])
        let gone = try await client.request(["type": "get", "target": "lobby", "path": .string("#\(held.intValue ?? 0)/x")])
        try #require(gone["type"] == "error", "the held player is freed: \(gone.jsonText)")
        // Enough records after it for a snapshot written once it was freed.
        for index in 1...24 { _ = try await acked(["type": "set", "target": "lobby", "path": "title", "value": .string("t\(index)")]) }

        var live: [JSONValue] = []
        while live.last?["effects"]?.arrayValue?.contains(where: { $0["value"] == "t24" }) != true {
            live.append(try await client.nextBatch("lobby"))
        }
        let hostX = live.filter { batch in batch["effects"]?.arrayValue?.contains { $0["value"] == 3 } == true }
        try #require(hostX.count == 1, "the batch that set the held player's x was received live: \(live.map(\.jsonText))")
        let before = try await acked(["type": "digest", "target": "lobby"])
        // The watcher's batches were sent before its reply (one order per connection).
        _ = try await watcher.request(["type": "digest", "target": "lobby"])
        let watched = watcher.takeAll { $0["type"] == "batch" }
        try #require(watched.contains { $0.jsonText.contains("\"held\"") }, "\(watched.map(\.jsonText))")
        #expect(await daemon.stopped() == 0)
        // `snapshot.json` is one journal line: its CRC-32 in hex, a space, the JSON.
        let line = Array(try Data(contentsOf: URL(fileURLWithPath: state + "/files/1/snapshot.json")))
        let snapshot = try JSONParser(maxDepth: 512, maxBytes: 1 << 30).parse(Array(line.dropFirst(9)))
        let kept = snapshot["targets"]?.arrayValue?.first { $0["name"] == "lobby" }?["history"]?.arrayValue ?? []
        try #require(kept.contains { $0.jsonText == hostX[0].jsonText }, "the snapshot keeps the batch: \(kept.count) batches")
        let freed = snapshot["targets"]?.arrayValue?.first { $0["name"] == "lobby" }?["freedInstances"]
        #expect(freed == [["instance": held, "viewModel": "Player"]], "\(freed?.jsonText ?? "none")")

        try await withDaemon(["--config", configPath]) { daemon in
            let again = try await TestClient.connected(to: daemon)
            let after = try await again.request(["type": "digest", "target": "lobby"])
            #expect(after["digest"] == before["digest"] && after["seq"] == before["seq"], "\(daemon.stderr)")
            let whole = try await again.request(["type": "subscribe", "target": "lobby", "cursor": ["epoch": epoch, "seq": from]])
            try #require(whole["type"] == "subscribed" && whole["resumed"] == true, "\(whole.jsonText)")
            var replayed: [JSONValue] = []
            for _ in live { replayed.append(try await again.nextBatch("lobby")) }
            #expect(replayed.map(\.jsonText) == live.map(\.jsonText))

            let cut = try await TestClient.connected(to: daemon)
            let paths = try await cut.request([
                "type": "subscribe", "target": "lobby", "paths": ["host/x", "host/name"], "cursor": ["epoch": epoch, "seq": from],
            ])
            try #require(paths["type"] == "subscribed" && paths["resumed"] == true, "\(paths.jsonText)")
            var cutReplayed: [JSONValue] = []
            for _ in watched { cutReplayed.append(try await cut.nextBatch("lobby")) }
            #expect(cutReplayed.map(\.jsonText) == watched.map(\.jsonText))
        }
    }
}
