import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

@testable import RiveSyncServer

/// Damage to a state directory: a complete record that does not check out, records out of
/// order and a missing snapshot refuse to start with the file and line; lost history (the
/// log or a whole journal gone) starts a new epoch, so no old cursor resumes onto it.
@Suite(.serialized) struct JournalDamageTests {
    /// A state directory with three acked players in the lobby; returns the daemon's epoch and
    /// the lobby's seq.
    static func populated(_ state: String, extra: [String] = []) async throws -> (epoch: JSONValue, seq: Int) {
        let daemon = try await DaemonProcess.start(["--demo", "--state-dir", state] + extra)
        let client = try TestClient(url: daemon.url)
        let welcome = try await client.request(["type": "hello", "protocol": [1]])
        let acked = try await PersistenceTests.appendPlayers(client, prefix: "p", count: 3)
        try #require(acked.count == 3)
        let digest = try await client.request(["type": "digest", "target": "lobby"])
        #expect(await daemon.stopped() == 0)
        return (try #require(welcome["epoch"]), try #require(digest["seq"]?.intValue))
    }

    /// Starts a daemon that must refuse to start; returns what it wrote on stderr.
    static func refusal(_ state: String) async -> String {
        do {
            let daemon = try await DaemonProcess.start(["--demo", "--state-dir", state])
            await daemon.stopped()
            Issue.record("the daemon started on a damaged state directory:\n\(daemon.stderr)")
            return ""
        } catch DaemonProcess.DaemonError.didNotStart(let stderr) {
            return stderr
        } catch {
            Issue.record("\(error)")
            return ""
        }
    }

    static func logLines(_ state: String) throws -> [Substring] {
        try String(contentsOfFile: state + "/files/1/log", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    }

    static func writeLog(_ state: String, _ lines: [Substring]) throws {
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: state + "/files/1/log"))
    }

    @Test func damageInsideTheLastCompleteRecordIsCorruptionNotATornWrite() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        _ = try await Self.populated(state)
        var lines = try Self.logLines(state)
        #expect(lines.last == "", "the log ends with a newline")
        let last = lines.count - 2
        var bytes = Array(lines[last].utf8)
        bytes[bytes.count / 2] ^= 0x01
        lines[last] = Substring(String(decoding: bytes, as: UTF8.self))
        try Self.writeLog(state, lines)
        let stderr = await Self.refusal(state)
        #expect(stderr.contains("corrupt at line \(last + 1)"), "\(stderr)")
    }

    @Test func aDuplicatedRecordRefusesToStart() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        _ = try await Self.populated(state)
        var lines = try Self.logLines(state)
        lines.insert(lines[2], at: 3)
        try Self.writeLog(state, lines)
        let stderr = await Self.refusal(state)
        #expect(stderr.contains("corrupt at line 4") && stderr.contains("duplicated"), "\(stderr)")
    }

    @Test func aReorderedRecordRefusesToStart() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        _ = try await Self.populated(state)
        var lines = try Self.logLines(state)
        lines.swapAt(2, 3)
        try Self.writeLog(state, lines)
        let stderr = await Self.refusal(state)
        #expect(stderr.contains("corrupt at line 3"), "\(stderr)")
    }

    /// A `daemon.json` that is not JSON names the file and the parser's reason, not only "no epoch".
    @Test func anUnparsableDaemonFileNamesTheParsersReason() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        _ = try await Self.populated(state)
        try Data(#"{"epoch": "e1", "files": [}"#.utf8).write(to: URL(fileURLWithPath: state + "/daemon.json"))
        let stderr = await Self.refusal(state)
        #expect(stderr.contains("daemon.json") && stderr.contains("corrupt at line 1"), "\(stderr)")
        #expect(!stderr.contains("no epoch"), "the parser's reason, not a missing epoch: \(stderr)")
    }

    @Test func aMissingSnapshotIsNamed() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let config = try DaemonProcess.writeConfiguration(
            #"{"files": [{"name": "demo", "path": "\#(DaemonProcess.packageRoot)/protocol/examples/demo.schema.json"}],"#
                + #""instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}],"#
                + #""stateMachines": [{"name": "lobby", "file": "demo", "artboard": "Lobby", "globals": {"Theme": "theme"}}],"#
                + #""stateDirectory": "\#(state)", "snapshotEvery": 10, "auth": {"allowAnonymous": "loopback"}}"#)
        let daemon = try await DaemonProcess.start(["--config", config])
        let client = try await TestClient.connected(to: daemon)
        _ = try await PersistenceTests.appendPlayers(client, prefix: "s", count: 4)
        #expect(await daemon.stopped() == 0)
        try FileManager.default.removeItem(atPath: state + "/files/1/snapshot.json")
        do {
            let again = try await DaemonProcess.start(["--config", config])
            await again.stopped()
            Issue.record("started without its snapshot:\n\(again.stderr)")
        } catch DaemonProcess.DaemonError.didNotStart(let stderr) {
            #expect(stderr.contains("snapshot.json is missing"), "\(stderr)")
        }
    }

    /// A state directory that rivesyncd at fc7e991 wrote (journal format 1, `journal-v1/`) is
    /// restored with its epoch, seqs and digests, then rewritten in the current format, which
    /// restores the same again.
    @Test func aJournalOfTheFirstFormatIsRestoredAndUpgraded() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try FileManager.default.removeItem(atPath: state)
        try FileManager.default.copyItem(atPath: DaemonProcess.packageRoot + "/Tests/RiveSyncServerTests/journal-v1", toPath: state)
        for round in ["first format", "upgraded"] {
            try await withDaemon(["--demo", "--state-dir", state]) { daemon in
                let client = try TestClient(url: daemon.url)
                let welcome = try await client.request(["type": "hello", "protocol": [1]])
                #expect(welcome["epoch"] == "e-d213e981aec49a7b", "\(round): \(daemon.stderr)")
                let lobby = try await client.request(["type": "digest", "target": "lobby"])
                #expect(
                    lobby["seq"] == 5 && lobby["digest"] == "5b2dc9c480506b6ba17c4e7e2bfd99d58def29f333b337e35aff1378fd6d28bf", "\(round)")
                let room = try await client.request(["type": "digest", "target": "room"])
                #expect(room["digest"] == "c3c65e4812c8c10c824e469ed7e9dd207eac07defbbdf34a5b439568caa71d42", "\(round)")
                #expect(try await PersistenceTests.playerNames(client) == ["v1-a", "v1-b"], "\(round)")
                let theme = try await client.request(["type": "get", "target": "theme", "path": "name"])
                #expect(theme["value"] == "Dusk", "\(round)")
                #expect(await daemon.stopped() == 0)
                let header = try JSONParser(maxDepth: 512).parse(
                    [UInt8](try #require(FileManager.default.contents(atPath: state + "/files/1/file.json"))))
                #expect(header["format"] == 5, "\(round): file.json is rewritten in the current format")
            }
        }
    }

    /// Records that check out (checksum, order) but cannot be replayed, or do not have their
    /// fields, refuse to start with the file and line: nothing is skipped.
    @Test(arguments: [
        (#"{"t":"advance","target":"nowhere","commands":[]}"#, "cannot be replayed"),
        (
            #"{"t":"createStateMachine","name":"x","artboard":"Nope","stateMachine":null,"main":null,"globals":[],"manual":false,"rate":60}"#,
            "cannot be replayed"
        ),
        (#"{"t":"createInstance"}"#, "without 'source'"),
        (#"{"t":"publish","instance":"seven","name":"x"}"#, "expected an integer"),
        (#"{"t":"teleport"}"#, "record type 'teleport'"),
    ])
    func aRecordThatCannotBeReplayedRefusesToStart(record: String, reason: String) async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        _ = try await Self.populated(state)
        var lines = try Self.logLines(state)
        let sequence = lines.count - 1
        let json = try JSONParser().parse(Array(record.utf8))
        let line = FileJournal.line(.object([("s", .number(Double(sequence)))] + (json.objectValue ?? [])))
        lines.insert(Substring(String(decoding: line.dropLast(), as: UTF8.self)), at: lines.count - 1)
        try Self.writeLog(state, lines)
        let stderr = await Self.refusal(state)
        #expect(stderr.contains("corrupt at line \(sequence + 1)") && stderr.contains(reason), "\(stderr)")
    }

    /// Ways of losing history while `daemon.json` (the epoch) stays.
    enum Loss: String, CaseIterable, CustomTestStringConvertible {
        case logAndSnapshotDeleted, logEmptied, journalDeleted
        var testDescription: String { rawValue }

        func apply(to state: String) throws {
            let manager = FileManager.default
            switch self {
            case .logAndSnapshotDeleted:
                try manager.removeItem(atPath: state + "/files/1/log")
                try? manager.removeItem(atPath: state + "/files/1/snapshot.json")
            case .logEmptied:
                try Data().write(to: URL(fileURLWithPath: state + "/files/1/log"))
            case .journalDeleted:
                try manager.removeItem(atPath: state + "/files/1")
            }
        }
    }

    @Test(arguments: Loss.allCases) func lostHistoryStartsANewEpoch(loss: Loss) async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let before = try await Self.populated(state)
        try loss.apply(to: state)
        try await withDaemon(["--demo", "--state-dir", state]) { daemon in
            let client = try TestClient(url: daemon.url)
            let welcome = try await client.request(["type": "hello", "protocol": [1]])
            #expect(welcome["epoch"] != nil && welcome["epoch"] != before.epoch, "a new epoch after losing history")
            #expect(daemon.stderr.contains("new epoch"), "\(daemon.stderr)")
            let subscribed = try await client.request([
                "type": "subscribe", "target": "lobby", "cursor": ["epoch": before.epoch, "seq": .number(Double(before.seq - 1))],
            ])
            #expect(subscribed["type"] == "snapshot", "an old cursor gets a snapshot, not a resume: \(subscribed.jsonText)")
            let players = try await client.request(["type": "get", "target": "lobby", "path": "players"])
            #expect(players["value"]?.arrayValue?.isEmpty == true, "\(players.jsonText)")
            await daemon.stopped()
            try await withDaemon(["--demo", "--state-dir", state]) { again in
                let third = try TestClient(url: again.url)
                let welcomeAgain = try await third.request(["type": "hello", "protocol": [1]])
                #expect(welcomeAgain["epoch"] == welcome["epoch"], "the new epoch lasts across a clean restart")
            }
        }
    }
}
