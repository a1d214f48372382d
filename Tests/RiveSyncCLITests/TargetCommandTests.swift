import Foundation
import RiveFile
import RiveSyncModel
import RiveSyncTestSupport
import XCTest

/// `create`, `publish` and `load` against a demo daemon: a deleted target made again from the
/// command line, bound to the shared theme; an instance shared under a new name; files loaded.
final class TargetCommandTests: DaemonCLITestCase {
    func testADeletedTargetIsCreatedAgainBoundToTheSharedTheme() throws {
        XCTAssertEqual(try rivesync("delete", "lobby").status, 0)
        XCTAssertEqual(try rivesync("get", "lobby", "title").status, 6, "the target is gone")
        XCTAssertEqual(
            try rivesync("create", "lobby", "--file", "demo", "--artboard", "Lobby", "Theme=@theme"),
            .init(status: 0, stdout: "created 'lobby'\n", stderr: ""))
        XCTAssertEqual(try rivesync("get", "lobby", "title"), .init(status: 0, stdout: "\"Preview lobby\"\n", stderr: ""))
        XCTAssertEqual(try rivesync("set", "theme", "background", "#FF010203").status, 0)
        XCTAssertEqual(try rivesync("get", "lobby", "@Theme/background").stdout, "\"#FF010203\"\n", "bound to the published theme")
        let again = try rivesync("create", "lobby", "--file", "demo", "--artboard", "Lobby")
        XCTAssertEqual(again.status, 8, again.stderr)
        XCTAssertEqual(again.stderr, "rivesync: target 'lobby' already exists\n")
    }

    func testCreateAManualTargetWithItsMainInstance() throws {
        XCTAssertEqual(
            try rivesync("create", "stepped", "--file", "demo", "--artboard", "Character", "--manual", "main=Character/Loading", "--json"),
            .init(status: 0, stdout: #"{"target":"stepped"}"# + "\n", stderr: ""))
        XCTAssertEqual(try rivesync("get", "stepped", "mood").stdout, "5\n", "the authored Loading instance")
        XCTAssertEqual(try rivesync("set", "stepped", "mood", "7", "--advance").status, 0)
        XCTAssertEqual(try rivesync("get", "stepped", "mood").stdout, "7\n")
        XCTAssertEqual(try rivesync("create", "x", "--file", "demo", "--artboard", "Nope").status, 6)
        XCTAssertEqual(try rivesync("create", "x", "--file", "demo", "main=Nope").status, 6)
        let usage = try rivesync("create", "x")
        XCTAssertEqual(usage.status, 64)
        XCTAssertEqual(usage.stderr, "rivesync: create: give the daemon's file with --file FILE\n")
    }

    func testPublishSharesAnInstance() throws {
        let published = try rivesync("publish", "dark", "Theme/Dark", "--file", "demo")
        XCTAssertEqual(published.status, 0, published.stderr)
        XCTAssertTrue(published.stdout.hasPrefix("published #") && published.stdout.hasSuffix(" as 'dark'\n"), published.stdout)
        XCTAssertEqual(try rivesync("get", "dark", "name").stdout, "\"Dark\"\n")
        XCTAssertEqual(try rivesync("publish", "dark", "Theme/Light", "--file", "demo").status, 8, "the name is taken")
        XCTAssertEqual(try rivesync("publish", "light", "@theme").status, 0, "the instance published as theme, once more")
        XCTAssertEqual(try rivesync("set", "light", "name", "Shared").status, 0)
        XCTAssertEqual(try rivesync("get", "theme", "name").stdout, "\"Shared\"\n", "one instance under two names")
    }

    func testLoadASchemaAndARivFile() throws {
        let schema = DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json"
        XCTAssertEqual(try rivesync("load", "copy", schema), .init(status: 0, stdout: "loaded 'copy'\n", stderr: ""))
        XCTAssertEqual(try rivesync("load", "copy", schema).status, 8, "file_exists")
        XCTAssertEqual(
            try rivesync("create", "copied", "--file", "copy", "--artboard", "Character").stdout, "created 'copied'\n")
        XCTAssertEqual(try rivesync("get", "copied", "mood").stdout, "0\n")
        let riv = try RivesyncProcess.fixture("state_machine_triggers")
        XCTAssertEqual(try rivesync("load", "triggers", riv, "--json").stdout, #"{"file":"triggers"}"# + "\n")
        XCTAssertTrue(try rivesync("ls").stdout.contains("file triggers: "))
        let large = try rivesync("load", "large", try RivesyncProcess.fixture("data_binding_test"))
        XCTAssertEqual(large, .init(status: 0, stdout: "loaded 'large'\n", stderr: ""), "past maxMessageBytes: in parts")
        let missing = try rivesync("load", "none", "/nonexistent/file.riv")
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "rivesync: /nonexistent/file.riv: no such file (ENOENT)\n")
    }

    /// A schema that is not JSON is named with its line and column, as `inspect` names it,
    /// and nothing is loaded.
    func testLoadASchemaThatIsNotJSONSaysWhere() throws {
        let path = NSTemporaryDirectory() + "rivesync-load-notjson-\(getpid()).json"
        try Data("{\"viewModels\": [\n  {\"name\": \"A\",}\n]}\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try rivesync("load", "broken", path)
        XCTAssertEqual(loaded, .init(status: 1, stdout: "", stderr: "rivesync: \(path):2:16: not JSON: expected a string key\n"))
        XCTAssertFalse(try rivesync("ls").stdout.contains("file broken"))
    }

    /// A `.riv` file of several MB (a designer's real file is that big) loads in parts through
    /// the daemon's 1 MiB messages, and every byte of it arrives: its last authored value reads
    /// back whole.
    func testLoadARivFileOfSeveralMegabytes() throws {
        let strings = 100
        let text = { (index: Int) in String(repeating: Character(UnicodeScalar(UInt8(65 + index % 26))), count: 50_000) }
        let properties = (0..<strings).map { #"{"name": "text\#($0)", "type": "string"}"# }
        let values = (0..<strings).map { #""text\#($0)": "\#(text($0))""# }
        let schema = try FileSchema(
            jsonText: """
                {"rivesyncSchema": 1, "viewModels": [{"name": "Script", "properties": [\(properties.joined(separator: ","))],
                 "instances": [{"name": "Draft", "values": {\(values.joined(separator: ","))}}]}]}
                """)
        let bytes = RiveFileWriter.write(schema)
        XCTAssertGreaterThan(bytes.count, 5_000_000)
        let path = try RivesyncProcess.temporaryFile("script.riv", bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try rivesync("load", "script", path), .init(status: 0, stdout: "loaded 'script'\n", stderr: ""))
        XCTAssertEqual(try rivesync("publish", "draft", "Script/Draft", "--file", "script").status, 0)
        let last = try rivesync("get", "draft", "text\(strings - 1)")
        XCTAssertEqual(last.status, 0, last.stderr)
        XCTAssertEqual(last.stdout, "\"\(text(strings - 1))\"\n")
        XCTAssertEqual(try rivesync("load", "script", path).status, 8, "file_exists, after every part")
    }
}
