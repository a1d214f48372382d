import Foundation
import RiveSyncTestSupport
import XCTest

/// A CLI test with its own demo daemon.
class DaemonCLITestCase: XCTestCase {
    var daemon: DaemonProcess!

    override func setUpWithError() throws {
        daemon = try DaemonProcess(["--demo"])
    }

    override func tearDown() {
        daemon?.stop()
        if let run = testRun, run.totalFailureCount > 0, let daemon { print("rivesyncd stderr:\n\(daemon.stderr)") }
        daemon = nil
    }

    /// Runs `rivesync arguments… --url <daemon>`.
    func rivesync(_ arguments: String...) throws -> RivesyncProcess.Result {
        try RivesyncProcess.run(arguments + ["--url", daemon.url])
    }
}
