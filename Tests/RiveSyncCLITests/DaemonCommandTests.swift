import Foundation
import XCTest

/// `ls`, `get`, `set`, `fire`, `list`, `bind` and `watch` against a demo daemon, compared to
/// literal output (watch lines without their `time`, checked in `QACommandTests`) and exit
/// statuses.
final class DaemonCommandTests: DaemonCLITestCase {
    func testLs() throws {
        XCTAssertEqual(
            try rivesync("ls"),
            .init(
                status: 0,
                stdout: """
                    file demo: 4 view models, 6 instances, 2 artboards, 3 state machines
                      view model Theme (global): Light, Dark
                      view model Character: Default, Loading
                      view model Player: Guest
                      view model Lobby: Default
                      artboard Character: character, reactions
                      artboard Lobby: lobby
                    target character (state machine Character/character, file demo, auto, seq 0): main=#1099511627778, Theme=#1099511627777
                    target lobby (state machine Lobby/lobby, file demo, auto, seq 0): main=#1099511627779, Theme=#1099511627777
                    target manual-target (state machine Character/character, file demo, manual, seq 0): main=#1099511627781, Theme=#1099511627777
                    target theme (instance, file demo, auto, seq 0): main=#1099511627777

                    """, stderr: ""))
        let json = try rivesync("ls", "--json")
        XCTAssertEqual(json.status, 0)
        XCTAssertTrue(
            json.stdout.hasPrefix(
                #"{"files":[{"name":"demo","viewModels":[{"name":"Theme","global":true,"instances":["Light","Dark"]}"#),
            json.stdout)
    }

    func testGetSetFire() throws {
        XCTAssertEqual(try rivesync("get", "character", "mood"), .init(status: 0, stdout: "0\n", stderr: ""))
        XCTAssertEqual(try rivesync("set", "character", "mood", "5.5"), .init(status: 0, stdout: "", stderr: ""))
        XCTAssertEqual(try rivesync("get", "character", "mood"), .init(status: 0, stdout: "5.5\n", stderr: ""))
        XCTAssertEqual(
            try RivesyncProcess.run(["set", "--url", daemon.url, "character", "--", "mood", "-2"]), .init(status: 0, stdout: "", stderr: "")
        )
        XCTAssertEqual(
            try rivesync("get", "character", "mood", "--json"),
            .init(status: 0, stdout: #"{"target":"character","path":"mood","type":"number","seq":2,"value":-2}"# + "\n", stderr: ""))
        XCTAssertEqual(try rivesync("set", "theme", "background", "#123456"), .init(status: 0, stdout: "", stderr: ""))
        XCTAssertEqual(try rivesync("get", "character", "@Theme/background"), .init(status: 0, stdout: "\"#FF123456\"\n", stderr: ""))
        XCTAssertEqual(try rivesync("set", "theme", "mode", "dark"), .init(status: 0, stdout: "", stderr: ""))
        XCTAssertEqual(try rivesync("set", "theme", "name", "Night sky"), .init(status: 0, stdout: "", stderr: ""))
        XCTAssertEqual(try rivesync("get", "theme", "name"), .init(status: 0, stdout: "\"Night sky\"\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("fire", "character", "success", "--json"),
            .init(status: 0, stdout: #"{"target":"character","seq":6,"command":6}"# + "\n", stderr: ""))
        XCTAssertEqual(try rivesync("get", "character", "success"), .init(status: 0, stdout: "1\n", stderr: ""))
    }

    /// `set TARGET P1 V1 P2 V2 …` is one transaction (PROTOCOL.md §16): one batch, every number.
    func testSetOfSeveralPairsIsOneTransaction() throws {
        XCTAssertEqual(
            try rivesync("set", "theme", "name", "Dark", "background", "#121212", "foreground", "#F2F2F2", "--json"),
            .init(status: 0, stdout: #"{"target":"theme","seq":1,"command":1,"commands":[1,2,3]}"# + "\n", stderr: ""))
        XCTAssertEqual(try rivesync("get", "character", "@Theme/background"), .init(status: 0, stdout: "\"#FF121212\"\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("set", "theme", "name", "Half", "background"),
            .init(status: 64, stdout: "", stderr: "rivesync: set: every PATH needs a VALUE\n"))
        XCTAssertEqual(try rivesync("get", "theme", "name"), .init(status: 0, stdout: "\"Dark\"\n", stderr: ""))
        let help = try RivesyncProcess.run(["set", "--help"])
        XCTAssertTrue(help.stdout.contains("set TARGET PATH VALUE [PATH VALUE...]") && help.stdout.contains("one transaction"), help.stdout)
    }

    func testErrorsAreOneLineWithTheirStatus() throws {
        let cases: [([String], RivesyncProcess.Result)] = [
            (
                ["set", "character", "mood", "abc"],
                .init(status: 7, stdout: "", stderr: "rivesync: 'abc' is not a number (property 'mood' is number)\n")
            ),
            (
                ["set", "theme", "background", "blue"],
                .init(
                    status: 7, stdout: "",
                    stderr: "rivesync: 'blue' is not a color #RRGGBB or #AARRGGBB (property 'background' is color)\n")
            ),
            (
                ["set", "character", "success", "1"],
                .init(status: 7, stdout: "", stderr: "rivesync: 'success' is a trigger: use 'rivesync fire'\n")
            ),
            (["get", "character", "mod"], .init(status: 6, stdout: "", stderr: "rivesync: no property at 'mod'\n")),
            (
                ["set", "theme", "mode", "sepia"],
                .init(status: 7, stdout: "", stderr: "rivesync: 'mode': 'sepia' is not one of light, dark\n")
            ),
            (
                ["fire", "character", "mood"],
                .init(status: 7, stdout: "", stderr: "rivesync: 'mood': expected trigger, got number\n")
            ),
            (
                ["get", "character", "mood/x"],
                .init(status: 7, stdout: "", stderr: "rivesync: 'mood/x': expected viewModel, got number\n")
            ),
            (["get", "nobody", "x"], .init(status: 6, stdout: "", stderr: "rivesync: no target 'nobody' (see 'rivesync ls')\n")),
            (
                ["list", "frob", "lobby", "players"],
                .init(status: 64, stdout: "", stderr: "rivesync: list: unknown action 'frob' (usage: rivesync \(listUsage))\n")
            ),
            (["bind", "character", "Theme"], .init(status: 64, stdout: "", stderr: "rivesync: bind: 'Theme' is not SLOT=INSTANCE\n")),
            (
                ["list", "remove", "lobby", "players", "first"],
                .init(status: 7, stdout: "", stderr: "rivesync: list remove: 'first' is not an index\n")
            ),
            (
                ["get", "character", "mood", "--timeout", "soon"],
                .init(status: 7, stdout: "", stderr: "rivesync: --timeout needs a positive number of seconds, not 'soon'\n")
            ),
            (
                ["watch", "character", "--count", "0"],
                .init(status: 7, stdout: "", stderr: "rivesync: watch: --count needs a positive integer, not '0'\n")
            ),
        ]
        for (arguments, expected) in cases {
            XCTAssertEqual(try RivesyncProcess.run(arguments + ["--url", daemon.url]), expected, "\(arguments)")
        }
        XCTAssertEqual(
            try RivesyncProcess.run(["ls", "--url", "ws://127.0.0.1:1"]),
            .init(status: 3, stdout: "", stderr: "rivesync: cannot connect to ws://127.0.0.1:1: Unable to connect\n"))
    }

    private let listUsage =
        "list add TARGET PATH INSTANCE | list insert TARGET PATH INDEX INSTANCE | list remove TARGET PATH (INDEX | #ID) | list swap TARGET PATH INDEX INDEX"

    func testListEditsAndBind() throws {
        XCTAssertEqual(
            try rivesync("list", "add", "lobby", "players", "Player/Guest"), .init(status: 0, stdout: "#1099511627782\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("list", "insert", "lobby", "players", "0", "Player"), .init(status: 0, stdout: "#1099511627783\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("list", "add", "lobby", "players", "#1099511627782"), .init(status: 0, stdout: "#1099511627782\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("get", "lobby", "players"), .init(status: 0, stdout: "[1099511627783,1099511627782,1099511627782]\n", stderr: ""))
        XCTAssertEqual(try rivesync("list", "swap", "lobby", "players", "0", "1"), .init(status: 0, stdout: "", stderr: ""))
        XCTAssertEqual(try rivesync("list", "remove", "lobby", "players", "#1099511627782"), .init(status: 0, stdout: "", stderr: ""))
        XCTAssertEqual(try rivesync("list", "remove", "lobby", "players", "0"), .init(status: 0, stdout: "", stderr: ""))
        XCTAssertEqual(try rivesync("get", "lobby", "players"), .init(status: 0, stdout: "[]\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("list", "remove", "lobby", "players", "0"),
            .init(status: 7, stdout: "", stderr: "rivesync: 'players': index 0 outside 0..<0\n"))

        XCTAssertEqual(try rivesync("bind", "character", "Theme=Theme/Dark"), .init(status: 0, stdout: "", stderr: ""))
        XCTAssertEqual(try rivesync("get", "character", "@Theme/name"), .init(status: 0, stdout: "\"Dark\"\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("bind", "character", "Lobby=Theme/Dark"),
            .init(status: 6, stdout: "", stderr: "rivesync: 'Lobby' is not a global view model\n"))
    }

    func testWatchPrintsEachChangeUntilCount() throws {
        let watch = try RivesyncProcess.start(["watch", "character", "mood", "--current", "--count", "3", "--url", daemon.url])
        XCTAssertEqual(try watch.nextLine().withoutTime, #"{"path":"mood","value":0,"seq":0}"#)
        XCTAssertEqual(try rivesync("set", "character", "mood", "1").status, 0)
        XCTAssertEqual(try rivesync("set", "character", "mood", "2").status, 0)
        XCTAssertEqual(
            try watch.finish().withoutTime,
            .init(
                status: 0, stdout: #"{"path":"mood","value":1,"seq":1}"# + "\n" + #"{"path":"mood","value":2,"seq":2}"# + "\n", stderr: ""))

        let batches = try RivesyncProcess.start(["watch", "lobby", "--current", "--count", "3", "--url", daemon.url])
        XCTAssertEqual(try batches.nextLine().withoutTime, #"{"seq":0,"resync":true}"#)
        XCTAssertEqual(try rivesync("set", "lobby", "title", "Hi").status, 0)
        XCTAssertEqual(try rivesync("list", "add", "lobby", "players", "Player").status, 0)
        XCTAssertEqual(
            try batches.finish().withoutTime,
            .init(
                status: 0,
                stdout: #"{"seq":1,"changes":[{"op":"set","path":"title","value":"Hi"}]}"# + "\n"
                    + #"{"seq":2,"changes":[{"op":"listInsert","path":"players","index":0,"item":1099511627782}]}"# + "\n",
                stderr: ""))
    }

    func testDeleteEndsAWatchAndTheTarget() throws {
        let watch = try RivesyncProcess.start(["watch", "character", "mood", "--current", "--url", daemon.url])
        XCTAssertEqual(try watch.nextLine().withoutTime, #"{"path":"mood","value":0,"seq":0}"#, "subscribed before the set")
        XCTAssertEqual(try rivesync("set", "character", "mood", "1").status, 0)
        XCTAssertEqual(try watch.nextLine().withoutTime, #"{"path":"mood","value":1,"seq":1}"#)
        let deleted = try rivesync("delete", "character", "--json")
        XCTAssertEqual(deleted.status, 0, deleted.stderr)
        XCTAssertTrue(deleted.stdout.hasPrefix(#"{"target":"character","freed":[1099511627"#), deleted.stdout)
        XCTAssertEqual(try watch.finish().withoutTime, .init(status: 8, stdout: "", stderr: "rivesync: target 'character' was deleted\n"))
        XCTAssertEqual(
            try rivesync("get", "character", "mood"),
            .init(status: 6, stdout: "", stderr: "rivesync: no target 'character' (see 'rivesync ls')\n"))
        XCTAssertEqual(
            try rivesync("delete", "character"),
            .init(status: 6, stdout: "", stderr: "rivesync: no target 'character' (see 'rivesync ls')\n"))
    }
}

extension String {
    /// A watch line without its `"time":"…"` member.
    var withoutTime: String { replacingOccurrences(of: #","time":"[^"]*""#, with: "", options: .regularExpression) }
}

extension RivesyncProcess.Result {
    /// The result with `time` removed from its watch lines.
    var withoutTime: Self { .init(status: status, stdout: stdout.withoutTime, stderr: stderr) }
}
