import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `deleteTarget` against the real daemon: subscribers are told, queued commands get a typed
/// error, what only the target held is freed, a name used again starts a new epoch, and all
/// of it survives a restart with and without journal compaction.
@Suite(.serialized) struct DeleteTargetTests {
    static func configuration(state: String, snapshotEvery: Int) throws -> String {
        let config: JSONValue = [
            "files": [["name": "demo", "path": .string(DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json")]],
            "instances": [["name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"]],
            "stateDirectory": .string(state), "snapshotEvery": .number(Double(snapshotEvery)), "allowFileUploads": true,
            "auth": ["allowAnonymous": "loopback"],
        ]
        let path = state + "/config.json"
        try Data(config.serialized()).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func createRoom(_ client: TestClient, file: String = "demo") async throws -> JSONValue {
        try await client.request([
            "type": "createStateMachine", "file": .string(file), "name": "room", "artboard": "Lobby", "mode": "manual",
        ])
    }

    @Test func deletingARoomEndsItsStreamsFreesItsInstancesAndLetsTheNameStartOver() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let config = try Self.configuration(state: state, snapshotEvery: 10_000)
        let daemon = try await DaemonProcess.start(["--config", config])
        let owner = try await TestClient.connected(to: daemon)
        let watcher = try await TestClient.connected(to: daemon)
        let welcome = try await TestClient(url: daemon.url).request(["type": "hello", "protocol": [1]])
        let epoch = try #require(welcome["epoch"]?.stringValue)

        #expect(try await Self.createRoom(owner)["type"] == "target")
        let guest = try #require(
            try await owner.request(["type": "createInstance", "file": "demo", "source": ["name": "Guest", "viewModel": "Player"]])[
                "instance"])
        owner.send(["type": "listAppend", "id": 40, "target": "room", "path": "players", "instance": guest])
        _ = try await owner.request(["type": "advance", "target": "room"])
        #expect(try await owner.next(where: { $0["id"] == 40 }, what: "the append's ack")["type"] == "ack")
        let snapshot = try await watcher.request(["type": "subscribe", "target": "room"])
        #expect(snapshot["epoch"] == .string(epoch) && snapshot["seq"] == 1, "\(snapshot.jsonText)")
        let roomInstances = Set(snapshot["instances"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? [])
        #expect(roomInstances.contains(guest.intValue ?? -1))

        owner.send(["type": "set", "id": 50, "target": "room", "path": "title", "value": "never"])
        let deleted = try await owner.request(["type": "deleteTarget", "target": "room"])
        #expect(deleted["type"] == "targetDeleted" && deleted["target"] == "room", "\(deleted.jsonText)")
        let freed = Set(deleted["freed"]?.arrayValue?.compactMap(\.intValue) ?? [])
        let theme = try #require(try await owner.request(["type": "get", "target": "theme", "path": "name"])["value"])
        #expect(theme == "Light", "the published theme is kept")
        #expect(freed == roomInstances, "the room's own instances (main, its player, the Theme made for it) are freed: \(deleted.jsonText)")
        let dropped = try await owner.next(where: { $0["id"] == 50 }, what: "the queued set")
        #expect(dropped["code"] == "target_deleted" && dropped["details"]?["target"] == "room", "\(dropped.jsonText)")
        let (body, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(daemon.port)/metrics")!)
        let metrics = String(decoding: body, as: UTF8.self)
        #expect(metrics.contains("rivesync_commands_queued 0\n"), "the dropped set is no longer counted as queued:\n\(metrics)")
        #expect(metrics.contains(#"rivesync_commands_rejected_total{target="room"} 1"# + "\n"), "\(metrics)")
        let ended = try await watcher.next(where: { $0["type"] == "unsubscribed" }, what: "the end of the stream")
        #expect(ended["target"] == "room" && ended["reason"] == "deleted" && ended["id"] == nil, "\(ended.jsonText)")
        #expect(try await owner.request(["type": "get", "target": "room", "path": "title"])["code"] == "unknown_target")
        let gone = try await owner.request(["type": "get", "target": "theme", "path": .string("#\(guest.intValue ?? 0)/name")])
        #expect(gone["code"] == "unknown_instance", "\(gone.jsonText)")
        let names = try await owner.request(["type": "listTargets"])["targets"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(names == ["theme"])

        let other = try String(contentsOfFile: DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json", encoding: .utf8)
        let loaded = try await owner.request(["type": "loadFile", "name": "other", "schema": try JSONParser().parse(other)])
        #expect(loaded["type"] == "files", "\(loaded.jsonText)")
        #expect(try await Self.createRoom(owner, file: "other")["code"] == "target_exists", "only the deleted room's file may use the name")
        #expect(try await Self.createRoom(owner)["type"] == "target")
        let again = try await watcher.request(["type": "subscribe", "target": "room", "cursor": ["epoch": .string(epoch), "seq": 1]])
        #expect(
            again["type"] == "snapshot" && again["resumed"] == false && again["seq"] == 0,
            "an old cursor gets a snapshot: \(again.jsonText)")
        #expect(again["epoch"] == .string(epoch + "~1"), "\(again.jsonText)")
        #expect(await daemon.stopped() == 0)

        try await withDaemon(["--config", config]) { daemon in
            let later = try await TestClient.connected(to: daemon)
            let restored = try await later.request(["type": "subscribe", "target": "room"])
            #expect(restored["epoch"] == .string(epoch + "~1") && restored["seq"] == 0, "\(restored.jsonText)\n\(daemon.stderr)")
            #expect(
                try await later.request(["type": "get", "target": "theme", "path": .string("#\(guest.intValue ?? 0)/name")])["code"]
                    == "unknown_instance")
            #expect(
                try await later.request(["type": "loadFile", "name": "other", "schema": try JSONParser().parse(other)])["code"]
                    == "file_exists"
            )
            #expect(try await Self.createRoom(later, file: "other")["code"] == "target_exists")
        }
    }

    @Test func compactionKeepsDeletedNamesAndGenerations() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let config = try Self.configuration(state: state, snapshotEvery: 10)
        let daemon = try await DaemonProcess.start(["--config", config])
        let client = try await TestClient.connected(to: daemon)
        for round in 0..<6 {
            #expect(try await Self.createRoom(client)["type"] == "target", "round \(round)")
            #expect(try await client.request(["type": "deleteTarget", "target": "room"])["type"] == "targetDeleted")
        }
        #expect(try await Self.createRoom(client)["type"] == "target")
        let before = try await client.request(["type": "subscribe", "target": "room"])
        #expect(await daemon.stopped() == 0)
        #expect(FileManager.default.fileExists(atPath: state + "/files/1/snapshot.json"), "the journal was compacted")

        try await withDaemon(["--config", config]) { daemon in
            let after = try await TestClient.connected(to: daemon)
            let restored = try await after.request(["type": "subscribe", "target": "room"])
            #expect(
                restored["epoch"] == before["epoch"] && before["epoch"]?.stringValue?.hasSuffix("~6") == true,
                "\(restored.jsonText)\n\(daemon.stderr)")
            #expect(try await after.request(["type": "deleteTarget", "target": "room"])["type"] == "targetDeleted")
            #expect(try await Self.createRoom(after)["type"] == "target")
            let seventh = try await after.request(["type": "subscribe", "target": "room"])
            #expect(seventh["epoch"]?.stringValue?.hasSuffix("~7") == true, "\(seventh.jsonText)")
        }
    }
}
