import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// The state directory: restarts keep state, epoch and cursors; a torn last record is cut;
/// damage in the middle refuses to start; a full disk refuses writes instead of acking them.
@Suite(.serialized) struct PersistenceTests {
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-state-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Appends `count` players named `prefix-i` to the lobby and returns the acked names.
    static func appendPlayers(_ client: TestClient, prefix: String, count: Int) async throws -> [String] {
        var acked: [String] = []
        for i in 0..<count {
            let created = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
            guard let instance = created["instance"] else { continue }
            let name = "\(prefix)-\(i)"
            let set = try await client.request([
                "type": "set", "target": "lobby", "path": .string("#\(instance.intValue ?? 0)/name"), "value": .string(name),
            ])
            let append = try await client.request(["type": "listAppend", "target": "lobby", "path": "players", "instance": instance])
            if set["type"] == "ack", append["type"] == "ack" { acked.append(name) }
        }
        return acked
    }

    /// The names of the lobby's players, in order.
    static func playerNames(_ client: TestClient) async throws -> [String] {
        let players = try await client.request(["type": "get", "target": "lobby", "path": "players"])
        var names: [String] = []
        for index in 0..<(players["value"]?.arrayValue?.count ?? 0) {
            let name = try await client.request(["type": "get", "target": "lobby", "path": .string("players/\(index)/name")])
            names.append(name["value"]?.stringValue ?? "?")
        }
        return names
    }

    @Test func restartKeepsStateEpochAndCursors() async throws {
        let state = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let daemon = try await DaemonProcess.start(["--demo", "--state-dir", state])
        var client = try await TestClient.connected(to: daemon)
        let acked = try await Self.appendPlayers(client, prefix: "p", count: 5)
        _ = try await client.request(["type": "set", "target": "theme", "path": "name", "value": "Dusk"])
        let before = try await client.request(["type": "digest", "target": "lobby"])
        #expect(await daemon.stopped() == 0)

        try await withDaemon(["--demo", "--state-dir", state]) { daemon in
            client = try TestClient(url: daemon.url)
            let hello = try await client.request(["type": "hello", "protocol": [1]])
            let after = try await client.request(["type": "digest", "target": "lobby"])
            #expect(after["digest"] == before["digest"] && after["seq"] == before["seq"], "\(daemon.stderr)")
            #expect(try await Self.playerNames(client) == acked)
            let themeName = try await client.request(["type": "get", "target": "character", "path": "@Theme/name"])
            #expect(themeName["value"] == "Dusk")
            let seq = try #require(before["seq"]?.intValue)
            let resumed = try await client.request([
                "type": "subscribe", "target": "lobby", "cursor": ["epoch": hello["epoch"] ?? .null, "seq": .number(Double(seq - 2))],
            ])
            #expect(resumed["type"] == "subscribed" && resumed["resumed"] == .bool(true), "\(resumed.jsonText)")
            let first = try await client.nextBatch("lobby")
            let second = try await client.nextBatch("lobby")
            #expect(first["seq"]?.intValue == seq - 1 && second["seq"]?.intValue == seq)
            let created = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
            let ack = try await client.request([
                "type": "listAppend", "target": "lobby", "path": "players", "instance": created["instance"] ?? .null,
            ])
            #expect(ack["seq"]?.intValue == seq + 1, "seqs continue after a restart")
        }
    }

    @Test func tornLastRecordIsCutAndTheRestKept() async throws {
        let state = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let daemon = try await DaemonProcess.start(["--demo", "--state-dir", state])
        let client = try await TestClient.connected(to: daemon)
        let acked = try await Self.appendPlayers(client, prefix: "t", count: 3)
        await daemon.stopped()
        let log = FileHandle(forWritingAtPath: state + "/files/1/log")!
        log.seekToEndOfFile()
        log.write(Data("1234abcd {\"s\":999,\"t\":\"adv".utf8))
        log.closeFile()
        try await withDaemon(["--demo", "--state-dir", state]) { daemon in
            let again = try await TestClient.connected(to: daemon)
            #expect(try await Self.playerNames(again) == acked)
            #expect(daemon.stderr.contains("torn"), "\(daemon.stderr)")
        }
    }

    @Test func damageInTheMiddleRefusesToStart() async throws {
        let state = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let daemon = try await DaemonProcess.start(["--demo", "--state-dir", state])
        let client = try await TestClient.connected(to: daemon)
        _ = try await Self.appendPlayers(client, prefix: "d", count: 3)
        await daemon.stopped()
        let path = state + "/files/1/log"
        var bytes = [UInt8](FileManager.default.contents(atPath: path)!)
        let secondLine = bytes.firstIndex(of: UInt8(ascii: "\n"))! + 20
        bytes[secondLine] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        await #expect(throws: DaemonProcess.DaemonError.self) { try await DaemonProcess.start(["--demo", "--state-dir", state]) }
        let refused = try await offThePool {
            try ChildProcess.run(DaemonProcess.binary(), ["--demo", "--state-dir", state, "--port", "0"], seconds: 60)
        }
        let message = refused.stderr
        #expect(refused.status != 0)
        #expect(message.contains("corrupt at line 2"), "\(message)")
    }

    /// A `files/` that cannot be listed refuses the start; it never reads as "no journals"
    /// (which counted every journal as lost, renewed the epoch and forgot every file). Once it
    /// is readable again, the state is whole. Root reads any directory whatever its mode, so
    /// under root (CI) the refused start runs as `nobody` (setpriv).
    @Test func anUnreadableFilesDirectoryRefusesToStart() async throws {
        let state = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let daemon = try await DaemonProcess.start(["--demo", "--state-dir", state])
        var client = try TestClient(url: daemon.url)
        let hello = try await client.request(["type": "hello", "protocol": [1]])
        let acked = try await Self.appendPlayers(client, prefix: "u", count: 3)
        await daemon.stopped()
        let asRoot = getuid() == 0
        if asRoot { #expect(chown(state, 65534, 65534) == 0 && chown(state + "/daemon.json", 65534, 65534) == 0) }
        #expect(chmod(state + "/files", 0) == 0)
        let command = [DaemonProcess.binary(), "--demo", "--state-dir", state, "--port", "0"]
        let refused = try await offThePool {
            try asRoot
                ? ChildProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"] + command, seconds: 60)
                : ChildProcess.run(command[0], Array(command.dropFirst()), seconds: 60)
        }
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("files: cannot be listed: Permission denied"), "\(refused.stderr)")
        #expect(chmod(state + "/files", 0o755) == 0)
        try await withDaemon(["--demo", "--state-dir", state]) { daemon in
            client = try TestClient(url: daemon.url)
            let again = try await client.request(["type": "hello", "protocol": [1]])
            #expect(again["epoch"] != nil && again["epoch"] == hello["epoch"], "no history was counted lost: \(daemon.stderr)")
            #expect(try await Self.playerNames(client) == acked)
        }
    }

    /// Writes a configuration whose journal in `state` is compacted every 10 records (the demo
    /// schema, its `lobby` state machine with the `theme` global) and returns its path.
    static func compactingConfiguration(in state: String) throws -> String {
        let config: JSONValue = [
            "files": [["name": "demo", "path": .string(DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json")]],
            "instances": [["name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"]],
            "stateMachines": [["name": "lobby", "file": "demo", "artboard": "Lobby", "globals": ["Theme": "theme"]]],
            "stateDirectory": .string(state), "snapshotEvery": 10, "durability": "everysec",
            "auth": ["allowAnonymous": "loopback"],
        ]
        let configPath = state + "/config.json"
        try Data(config.serialized()).write(to: URL(fileURLWithPath: configPath))
        return configPath
    }

    @Test func snapshotsCompactTheJournal() async throws {
        let state = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let configPath = try Self.compactingConfiguration(in: state)
        let daemon = try await DaemonProcess.start(["--config", configPath])
        let client = try await TestClient.connected(to: daemon)
        let acked = try await Self.appendPlayers(client, prefix: "s", count: 12)
        let before = try await client.request(["type": "digest", "target": "lobby"])
        #expect(await daemon.stopped() == 0)
        #expect(FileManager.default.fileExists(atPath: state + "/files/1/snapshot.json"))
        let logLines = (try String(contentsOfFile: state + "/files/1/log", encoding: .utf8)).split(separator: "\n").count
        #expect(logLines - 1 < 10, "the log was compacted (\(logLines) lines, its segment line first)")
        try await withDaemon(["--config", configPath]) { daemon in
            let again = try await TestClient.connected(to: daemon)
            let after = try await again.request(["type": "digest", "target": "lobby"])
            #expect(after["digest"] == before["digest"], "\(daemon.stderr)")
            #expect(try await Self.playerNames(again) == acked)
        }
    }

    /// A journaled mutation that the model refuses after its record was written (an
    /// incompatible main instance) takes the record back: the restart replays nothing of it.
    @Test func aRefusedMutationLeavesNoRecordBehind() async throws {
        let state = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let daemon = try await DaemonProcess.start(["--demo", "--state-dir", state])
        let client = try await TestClient.connected(to: daemon)
        let player = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
        let refused = try await client.request([
            "type": "createStateMachine", "file": "demo", "artboard": "Lobby", "name": "wrong", "main": player["instance"] ?? .null,
        ])
        #expect(refused["code"] == "incompatible_instance", "\(refused.jsonText)")
        let acked = try await Self.appendPlayers(client, prefix: "r", count: 1)
        #expect(await daemon.stopped() == 0)
        try await withDaemon(["--demo", "--state-dir", state]) { daemon in
            let again = try await TestClient.connected(to: daemon)
            let targets = try await again.request(["type": "listTargets"])
            #expect(
                targets["targets"]?.arrayValue?.map { $0["name"] } == ["character", "lobby", "manual-target", "theme"],
                "\(targets.jsonText)")
            #expect(try await Self.playerNames(again) == acked)
            let retry = try await again.request(["type": "createStateMachine", "file": "demo", "artboard": "Lobby", "name": "wrong"])
            #expect(retry["type"] == "target", "the name was never taken: \(retry.jsonText)")
        }
    }

    /// A state directory on a 2 MiB tmpfs that fills up, then has space again: while it is
    /// full, writes get `storage_failed` and are not applied; a failed append leaves no
    /// fragment in the log, so the writes acked after space came back survive a restart.
    @Test func aFullDiskEpisodeLosesNoAckedWrite() async throws {
        let disk = try Tmpfs(bytes: 2 << 20)
        let state = disk.path + "/state"
        let daemon = try await DaemonProcess.start(["--demo", "--state-dir", state])
        let client = try await TestClient.connected(to: daemon)
        try disk.fill(leaving: 200_000)
        let big = String(repeating: "z", count: 60_000)
        var acked: [String] = []
        var refusals = 0
        for i in 0..<12 {
            let value = "full-\(i)-" + big
            let reply = try await client.request(["type": "set", "target": "lobby", "path": "title", "value": .string(value)])
            if reply["type"] == "ack" {
                #expect(refusals == 0, "no write is acked while the disk is full")
                acked.append(value)
            } else {
                #expect(reply["code"] == "storage_failed", "\(reply.jsonText)")
                // The client learns why, not where the state directory is (the log says that).
                #expect(!reply.jsonText.contains(disk.path), "no state directory path sent to the client: \(reply.jsonText)")
                #expect(reply["message"]?.stringValue?.contains("No space left on device") == true, "\(reply.jsonText)")
                refusals += 1
            }
        }
        #expect(refusals > 0 && !acked.isEmpty, "acked \(acked.count), refused \(refusals)")
        let title = try await client.request(["type": "get", "target": "lobby", "path": "title"])
        #expect(title["value"]?.stringValue == acked.last, "a refused write is not applied")
        try disk.release()
        for i in 0..<5 {
            let value = "after-\(i)-" + big
            let reply = try await client.request(["type": "set", "target": "lobby", "path": "title", "value": .string(value)])
            #expect(reply["type"] == "ack", "writes are acked again once there is space: \(reply.jsonText)")
            acked.append(value)
        }
        #expect(await daemon.stopped() == 0)
        try await withDaemon(["--demo", "--state-dir", state]) { daemon in
            let again = try await TestClient.connected(to: daemon)
            let restored = try await again.request(["type": "get", "target": "lobby", "path": "title"])
            #expect(restored["value"]?.stringValue == acked.last, "the last acked write survives the restart")
            #expect(!daemon.stderr.contains("torn"), "no fragment was left in the log: \(daemon.stderr)")
        }
    }
}
