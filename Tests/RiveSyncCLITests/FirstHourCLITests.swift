import Foundation
import RiveSyncTestSupport
import XCTest

/// What a newcomer meets first: `ls` of a big file, help that says what `--timeout` does to
/// `watch`, and file errors with the OS's reason and a JSON error's line and column.
final class FirstHourCLITests: XCTestCase {
    /// A file with 12 instances of one view model: `ls` counts them and shows 8 (every one with `--all`).
    func testLsCountsAndShortensLongLists() throws {
        let instances = (1...12).map { #"{"name": "i\#($0)"}"# }.joined(separator: ", ")
        let path = try DaemonProcess.writeConfiguration(
            """
            {"files": [{"name": "big", "schema": {"rivesyncSchema": 1, "viewModels": [
               {"name": "Item", "properties": [{"name": "n", "type": "number"}], "instances": [\(instances)]}],
               "artboards": [{"name": "A", "stateMachines": ["s"]}]}}],
             "auth": {"allowAnonymous": "loopback"}}
            """)
        let daemon = try DaemonProcess(["--config", path])
        defer { daemon.stop() }
        XCTAssertEqual(
            try RivesyncProcess.run(["ls", "--url", daemon.url]),
            .init(
                status: 0,
                stdout: """
                    file big: 1 view model, 12 instances, 1 artboard, 1 state machine
                      view model Item: (12) i1, i2, i3, i4, i5, i6, i7, i8, and 4 more (--all)
                      artboard A: s

                    """, stderr: ""))
        let all = try RivesyncProcess.run(["ls", "--all", "--url", daemon.url])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stdout.contains("  view model Item: i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12\n"), all.stdout)
    }

    /// `watch --help` says that `--timeout` ends the watch (and with which status), not that
    /// it bounds a command.
    func testWatchHelpSaysWhatTimeoutDoes() throws {
        let help = try RivesyncProcess.run(["watch", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--timeout SECONDS    stop watching after SECONDS (default: never; see above)"), help.stdout)
        XCTAssertTrue(help.stdout.contains("stops it after S\nseconds with status 0, or 9 when --count N was given"), help.stdout)
        XCTAssertFalse(help.stdout.contains("longest wait for connecting and for the command"), help.stdout)
    }

    /// A file that cannot be read says why, as the OS does; one that is not JSON says where.
    func testFileErrorsSayWhyAndWhere() throws {
        let directory = NSTemporaryDirectory() + "rivesync-first-hour-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let broken = directory + "/broken.json"
        try Data("{\n  \"viewModels\": [\n    {\"name\": \"A\",, }\n  ]\n}\n".utf8).write(to: URL(fileURLWithPath: broken))
        XCTAssertEqual(
            try RivesyncProcess.run(["inspect", broken]),
            .init(status: 1, stdout: "", stderr: "rivesync: \(broken):3:18: not JSON: expected a string key\n"))
        XCTAssertEqual(
            try RivesyncProcess.run(["inspect", directory]),
            .init(status: 1, stdout: "", stderr: "rivesync: \(directory): is a directory (EISDIR)\n"))
        XCTAssertEqual(
            try RivesyncProcess.run(["ls", "--token-file", directory + "/none"]),
            .init(status: 1, stdout: "", stderr: "rivesync: \(directory)/none: no such file (ENOENT)\n"))
    }
}
