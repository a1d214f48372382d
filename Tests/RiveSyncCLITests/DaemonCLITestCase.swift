import Foundation
import RiveSyncTestSupport
import XCTest

/// A CLI test with its own daemon: the demo, or the configuration the test case gives.
class DaemonCLITestCase: XCTestCase {
    var daemon: DaemonProcess!

    /// The daemon's configuration document (nil: `--demo`).
    class var configuration: String? { nil }

    /// A configuration that loads `riv` (a file of `../shared/fixtures/riv`; a missing one fails
    /// the daemon's start, so the test) as `name`, with a manual state machine target `target`
    /// on its `artboard`.
    static func configuration(riv: String, name: String, target: String, artboard: String) -> String {
        let path = DaemonProcess.packageRoot + "/../shared/fixtures/riv/" + riv
        return """
            {"listen": {"host": "127.0.0.1"}, "files": [{"name": "\(name)", "path": "\(path)"}],
             "stateMachines": [{"name": "\(target)", "file": "\(name)", "artboard": "\(artboard)", "mode": "manual"}],
             "auth": {"allowAnonymous": "loopback"}}
            """
    }

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
