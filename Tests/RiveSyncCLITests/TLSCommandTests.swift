import Foundation
import RiveSyncTestSupport
import XCTest

/// `--cacert`: a daemon with a self-signed certificate is trusted through the file, and
/// refused (exit 3) without it; `--insecure` checks no certificate.
final class TLSCommandTests: XCTestCase {
    func testCACertificateFromTheCommandLine() throws {
        let tls = try TemporaryCertificate(prefix: "rivesync-cli-tls")
        defer { tls.remove() }
        let (directory, certificate, key) = (tls.directory, tls.certificate, tls.key)
        let config = directory.appendingPathComponent("rivesyncd.json")
        try Data(
            """
            {"listen": {"host": "127.0.0.1"}, "files": [{"name": "demo", "path": "\(QADaemonTestCase.demo)"}],
             "instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}],
             "tls": {"certificate": "\(certificate)", "key": "\(key)"}, "auth": {"allowAnonymous": "loopback"}}
            """.utf8
        ).write(to: config)
        let daemon = try DaemonProcess(["--config", config.path])
        defer { daemon.stop() }
        let url = "wss://127.0.0.1:\(daemon.port)/"
        XCTAssertEqual(try RivesyncProcess.run(["--cacert", certificate, "get", "theme", "name", "--url", url]).stdout, "\"Light\"\n")
        XCTAssertEqual(try RivesyncProcess.run(["get", "theme", "name", "--url", url]).status, 3, "an unknown CA is refused")
        XCTAssertEqual(
            try RivesyncProcess.run(["--insecure", "get", "theme", "name", "--url", url]).stdout, "\"Light\"\n", "--insecure checks nothing"
        )
        let script = try RivesyncProcess.run(
            ["script", "-", "--url", url, "--insecure"], stdin: "connect other\nother: expect value theme name Light\n")
        XCTAssertEqual(script.status, 0, "a script's own connections are insecure too: \(script.stdout) \(script.stderr)")
        XCTAssertEqual(
            try RivesyncProcess.run(["get", "theme", "name", "--url", url, "--cacert", directory.appendingPathComponent("none").path])
                .status, 1)
    }
}
