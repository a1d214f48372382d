import Foundation
import RiveSyncTestSupport
import XCTest

/// `rivesync ls` follows `listTargets` pages: with `maxPageSize` 1 the daemon sends one target
/// per reply, and every target is still listed once, in name order.
final class LsPagesTests: XCTestCase {
    func testLsListsEveryTargetAcrossPages() throws {
        let schema = DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json"
        let path = try DaemonProcess.writeConfiguration(
            """
            {"files": [{"name": "demo", "path": "\(schema)"}],
             "instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}],
             "stateMachines": [{"name": "lobby", "file": "demo", "artboard": "Lobby", "globals": {"Theme": "theme"}},
                               {"name": "character", "file": "demo", "artboard": "Character", "globals": {"Theme": "theme"}}],
             "limits": {"maxPageSize": 1},
             "auth": {"allowAnonymous": "loopback"}}
            """)
        let daemon = try DaemonProcess(["--config", path])
        defer { daemon.stop() }
        let listed = try RivesyncProcess.run(["ls", "--url", daemon.url])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let targets = listed.stdout.split(separator: "\n").filter { $0.hasPrefix("target ") }.map { $0.split(separator: " ")[1] }
        XCTAssertEqual(targets, ["character", "lobby", "theme"], listed.stdout)
    }
}
