import Foundation
import RiveSyncTestSupport
import XCTest

/// A CLI test with its own daemon: the demo, or the configuration the test case gives.
class DaemonCLITestCase: XCTestCase {
    var daemon: DaemonProcess!

    /// The daemon's configuration document (nil: `--demo`).
    class var configuration: String? { nil }

    override func setUpWithError() throws {
        if let configuration = Self.configuration {
            daemon = try DaemonProcess(["--config", try DaemonProcess.writeConfiguration(configuration)])
        } else {
            daemon = try DaemonProcess(["--demo"])
        }
    }

    override func tearDown() {
        daemon?.stop()
        if let run = testRun, run.totalFailureCount > 0, let daemon { print("rivesyncd stderr:\n\(daemon.stderr)") }
        daemon = nil
    }

    /// Runs `rivesync arguments… --url <daemon>` (with `stdin`).
    func rivesync(_ arguments: String..., stdin: String? = nil) throws -> RivesyncProcess.Result {
        try RivesyncProcess.run(arguments + ["--url", daemon.url], stdin: stdin)
    }
}
