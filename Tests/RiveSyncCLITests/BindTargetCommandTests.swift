import Foundation
import RiveSyncTestSupport
import XCTest

/// `rivesync bind-target` (PROTOCOL.md §8 `setBindTarget`) on bidirectional_precedence.riv from
/// `../shared/fixtures/riv` (a missing file fails the daemon's start, so the test): on its
/// artboard `source_first`, binds 0 and 1 are two-way binds of a shape's x and y, which carry a
/// written target to the view model's `x` and `y`.
final class BindTargetCommandTests: DaemonCLITestCase {
    override class var configuration: String? {
        configuration(riv: "bidirectional_precedence.riv", name: "twoway", target: "twoway", artboard: "source_first")
    }

    func testBindTargetReachesTheViewModel() throws {
        XCTAssertEqual(try rivesync("advance", "twoway").status, 0)
        let written = try rivesync("bind-target", "twoway", "0", "700", "--advance")
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(try rivesync("get", "twoway", "x").stdout, "700\n")
    }

    func testBindTargetErrors() throws {
        XCTAssertEqual(
            try rivesync("bind-target", "twoway", "9", "1", "--advance"),
            .init(
                status: 6, stdout: "",
                stderr: "rivesync: the state machine of 'twoway' has no data bind 9 (see 'rivesync inspect --graph')\n"))
        XCTAssertEqual(
            try rivesync("bind-target", "twoway", "0", "true", "--advance").status, 7, "a boolean for a number is a type_mismatch")
        XCTAssertEqual(try rivesync("bind-target", "twoway", "x", "1").status, 7, "BIND is an index")
    }
}
