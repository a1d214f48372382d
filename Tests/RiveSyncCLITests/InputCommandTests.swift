import Foundation
import RiveSyncTestSupport
import XCTest

/// `rivesync input` and the inputs `ls` lists (PROTOCOL.md §8, §19), on
/// state_machine_triggers.riv from `../shared/fixtures/riv` (a missing file fails the daemon's
/// start, so the test): its trigger input `Trigger 1` takes layer 0 out of state 3, where
/// Rive's runtime stands after 0.1 s.
final class InputCommandTests: DaemonCLITestCase {
    override class var configuration: String? {
        configuration(riv: "state_machine_triggers.riv", name: "triggers", target: "legacy", artboard: "main")
    }

    /// Layer 0's line under the target in `ls`.
    func layerLine() throws -> String {
        let lines = try rivesync("ls").stdout.split(separator: "\n").map(String.init)
        let target = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("target legacy ") }, "\(lines)")
        return lines[target + 1]
    }

    func testInputFiresATriggerAndLsListsIt() throws {
        let lines = try rivesync("ls").stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("  input Trigger 1 (trigger)"), "\(lines)")
        XCTAssertTrue(
            try rivesync("ls", "--json").stdout.contains(#""inputs":[{"name":"Trigger 1","type":"trigger"}]"#), "the listing as JSON")
        XCTAssertEqual(try rivesync("advance", "legacy", "--elapsed", "0.1").status, 0)
        let before = try layerLine()
        XCTAssertTrue(before.hasPrefix("  layer 0 ") && before.contains(": state 3 "), before)
        let fired = try rivesync("input", "legacy", "Trigger 1", "--advance", "--json")
        XCTAssertEqual(fired.status, 0, fired.stderr)
        XCTAssertTrue(fired.stdout.hasPrefix(#"{"target":"legacy","seq":"#), fired.stdout)
        XCTAssertEqual(try rivesync("advance", "legacy", "--elapsed", "0.1").status, 0)
        XCTAssertNotEqual(try layerLine(), before, "the fired trigger moved layer 0 on")
    }

    /// A JSON schema's state machine with a number and a boolean input, on a daemon of its own.
    func testInputSetsNumbersAndBooleansThatLsShows() throws {
        let schema = """
            {"rivesyncSchema": 1, "viewModels": [{"name": "V", "properties": [{"name": "n", "type": "number"}]}],
             "artboards": [{"name": "A", "viewModel": "V", "stateMachines": [{"name": "sm",
               "inputs": [{"name": "speed", "type": "number", "value": 1}, {"name": "armed", "type": "boolean"}],
               "layers": [{"name": "L", "states": [{"type": "EntryState"}]}]}]}]}
            """
        let config = try DaemonProcess.writeConfiguration(
            """
            {"listen": {"host": "127.0.0.1"}, "files": [{"name": "inputs", "path": "inputs.json"}],
             "stateMachines": [{"name": "sm", "file": "inputs", "artboard": "A"}], "auth": {"allowAnonymous": "loopback"}}
            """, files: ["inputs.json": schema])
        daemon.stop()
        daemon = try DaemonProcess(["--config", config])
        XCTAssertEqual(try rivesync("input", "sm", "speed", "2.5").status, 0)
        XCTAssertEqual(try rivesync("input", "sm", "armed", "true").status, 0)
        let lines = try rivesync("ls").stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("  input speed (number): 2.5") && lines.contains("  input armed (boolean): true"), "\(lines)")
        XCTAssertTrue(
            try rivesync("ls", "--json").stdout.contains(
                #""inputs":[{"name":"speed","type":"number","value":2.5},{"name":"armed","type":"boolean","value":true}]"#))
        XCTAssertEqual(try rivesync("input", "sm", "armed").status, 7, "firing a boolean input is a type_mismatch")
    }

    func testInputErrors() throws {
        XCTAssertEqual(
            try rivesync("input", "legacy", "Nope", "--advance"),
            .init(status: 6, stdout: "", stderr: "rivesync: 'legacy' has no state machine input 'Nope' (see 'rivesync ls')\n"))
        let mismatch = try rivesync("input", "legacy", "Trigger 1", "true", "--advance", "--json")
        XCTAssertTrue(mismatch.stderr.contains(#""code":"type_mismatch""#), mismatch.stderr)
        XCTAssertEqual(
            try rivesync("input", "legacy", "Trigger 1", "soon"),
            .init(status: 7, stdout: "", stderr: "rivesync: input: VALUE is true, false or a number, not 'soon'\n"))
        XCTAssertEqual(try rivesync("input", "legacy", "Trigger 1", "1", "2").status, 64)
    }
}
