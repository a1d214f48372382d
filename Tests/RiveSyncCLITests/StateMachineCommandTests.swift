import Foundation
import RiveSyncTestSupport
import XCTest

/// `rivesync` on state machines the daemon runs (PROTOCOL.md §19), on Rive's own test files
/// from `../shared/fixtures/riv` (a missing file fails the daemon's start, so the test):
/// `advance --elapsed` and its `settled`, `ls` with the layers' states, `watch` lines with the
/// state machine's changes, events and layers, and the script step `advance TARGET SECONDS`.
final class StateMachineCommandTests: DaemonCLITestCase {
    static let riv = DaemonProcess.packageRoot + "/../shared/fixtures/riv/"

    override class var configuration: String? {
        """
        {"listen": {"host": "127.0.0.1"},
         "files": [{"name": "lvm", "path": "\(riv)listener_view_model.riv"},
                   {"name": "events", "path": "\(riv)vm_listener_fire_event.riv"}],
         "stateMachines": [{"name": "lvm", "file": "lvm", "artboard": "main", "mode": "manual"},
                           {"name": "ding", "file": "events", "artboard": "Artboard", "mode": "manual"}],
         "auth": {"allowAnonymous": "loopback"}}
        """
    }

    func testAdvanceWithElapsedSaysWhetherTheStateMachineSettled() throws {
        XCTAssertEqual(
            try rivesync("advance", "lvm", "--json"),
            .init(status: 0, stdout: #"{"target":"lvm","seq":1,"settled":false}"# + "\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("advance", "lvm", "--elapsed", "0.25", "--json").stdout, #"{"target":"lvm","seq":1,"settled":false}"# + "\n",
            "a running animation that changes no value makes no batch")
        XCTAssertEqual(
            try rivesync("advance", "lvm", "--elapsed", "soon"),
            .init(status: 7, stdout: "", stderr: "rivesync: advance: --elapsed needs a number of seconds ≥ 0, not 'soon'\n"))
        let refused = try rivesync("advance", "lvm", "--elapsed", "61", "--json")
        XCTAssertEqual(refused.status, 1, "more than 60 s is refused by the daemon")
        XCTAssertTrue(refused.stderr.contains(#""code":"bad_message""#), refused.stderr)
    }

    func testLsShowsEachLayersState() throws {
        XCTAssertEqual(try rivesync("advance", "lvm").status, 0)
        let lines = try rivesync("ls").stdout.split(separator: "\n").map(String.init)
        let target = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("target lvm ") }, "\(lines)")
        XCTAssertTrue(
            lines[target].hasPrefix("target lvm (state machine main/State Machine 1, file lvm, manual, seq 1, not settled): main=#"))
        XCTAssertEqual(lines[target + 1], "  layer 0 Layer 1: state 1 (animation Timeline 1)")
        let json = try rivesync("ls", "--json").stdout
        XCTAssertTrue(
            json.contains(
                #""layers":[{"layer":0,"name":"Layer 1","state":1,"kind":"animation","animation":"Timeline 1"}],"settled":false"#),
            json)
    }

    func testWatchLinesSayWhatTheStateMachineDid() throws {
        // `--current` prints the starting point once subscribed, before any batch.
        let watch = try RivesyncProcess.start(["watch", "lvm", "--current", "--count", "3", "--url", daemon.url])
        XCTAssertEqual(try watch.nextLine().withoutTime, #"{"seq":0,"resync":true}"#)
        let events = try RivesyncProcess.start(["watch", "ding", "--current", "--count", "2", "--url", daemon.url])
        XCTAssertEqual(try events.nextLine().withoutTime, #"{"seq":0,"resync":true}"#)
        XCTAssertEqual(try rivesync("advance", "lvm").status, 0)
        XCTAssertEqual(try rivesync("set", "lvm", "col", "#64000A0F", "--advance").status, 0)
        let output = try watch.finish().withoutTime
        let lines = output.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.first,
            #"{"seq":1,"changes":[],"layers":[{"layer":0,"name":"Layer 1","state":1,"kind":"animation","animation":"Timeline 1"}],"settled":false}"#
        )
        let second = try XCTUnwrap(lines.last)
        XCTAssertTrue(second.hasPrefix(##"{"seq":2,"changes":[{"op":"set","path":"col","value":"#64000A0F"},"##), second)
        XCTAssertTrue(second.contains(#"{"op":"set","path":"num3","value":22,"by":"stateMachine"}"#), second)
        XCTAssertTrue(second.hasSuffix(#""settled":false}"#), second)

        XCTAssertEqual(try rivesync("script", "-", stdin: "advance ding\nfire ding go\nadvance ding 0.016\n").status, 0)
        let ding = try events.finish().withoutTime.stdout
        XCTAssertTrue(ding.contains(#""events":[{"name":"ding","delay":0}]"#), ding)
    }

    func testScriptAdvanceTakesSeconds() throws {
        let script = """
            advance lvm
            set lvm num1 5
            advance lvm 0.5
            expect value lvm num3 5
            expect error bad_message advance lvm 61

            """
        XCTAssertEqual(
            try rivesync("script", "-", stdin: script),
            .init(
                status: 0,
                stdout: """
                    ok 1: advance lvm
                    ok 2: set lvm num1 5
                    ok 3: advance lvm 0.5
                    ok 4: expect value lvm num3 5
                    ok 5: expect error bad_message advance lvm 61
                    passed 5 steps

                    """, stderr: ""))
        XCTAssertEqual(
            try rivesync("script", "-", stdin: "advance lvm soon\n").stderr, "rivesync: stdin:1: 'soon' is not a number of seconds ≥ 0\n")
    }
}
