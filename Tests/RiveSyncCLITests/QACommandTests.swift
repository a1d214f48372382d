import Foundation
import RiveSyncTestSupport
import XCTest

/// A daemon on the demo file with a manual target (`manual`) and a read-only token.
class QADaemonTestCase: XCTestCase {
    var daemon: DaemonProcess!
    var directory: URL!

    static let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("protocol/examples/demo.schema.json").path

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-qa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tokens = directory.appendingPathComponent("tokens.json")
        try Data(
            #"{"tokens": [{"name": "reader", "token": "reader-token-0123456789", "scopes": [{"allow": ["read"], "target": "*"}]}]}"#.utf8
        ).write(to: tokens)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokens.path)
        let config = directory.appendingPathComponent("rivesyncd.json")
        try Data(
            """
            {"listen": {"host": "127.0.0.1"}, "files": [{"name": "demo", "path": "\(Self.demo)"}],
             "instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}],
             "stateMachines": [
               {"name": "character", "file": "demo", "artboard": "Character", "globals": {"Theme": "theme"}},
               {"name": "lobby", "file": "demo", "artboard": "Lobby", "globals": {"Theme": "theme"}},
               {"name": "manual", "file": "demo", "artboard": "Character", "mode": "manual", "globals": {"Theme": "theme"}}],
             "auth": {"tokensFile": "\(tokens.path)", "allowAnonymous": "loopback"}}
            """.utf8
        ).write(to: config)
        daemon = try DaemonProcess(["--config", config.path])
    }

    override func tearDown() {
        daemon?.stop()
        if let run = testRun, run.totalFailureCount > 0, let daemon { print("rivesyncd stderr:\n\(daemon.stderr)") }
        daemon = nil
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func rivesync(_ arguments: String..., environment: [String: String] = [:], stdin: String? = nil) throws -> RivesyncProcess.Result {
        try RivesyncProcess.run(arguments, environment: environment.merging(["RIVESYNC_URL": daemon.url]) { $1 }, stdin: stdin)
    }

}

/// The options and commands QA scripts use: global options anywhere, the environment, token
/// files, timeouts, the exit-code table, `--json` errors, `advance`, `dump`, and `watch` lines
/// with seq and time.
final class QACommandTests: QADaemonTestCase {
    func testGlobalOptionsGoBeforeOrAfterTheCommandAndComeFromTheEnvironment() throws {
        XCTAssertEqual(try RivesyncProcess.run(["--url", daemon.url, "get", "character", "mood"]).stdout, "0\n")
        XCTAssertEqual(
            try RivesyncProcess.run(["--url=\(daemon.url)", "--json", "get", "character", "mood"]).stdout,
            #"{"target":"character","path":"mood","type":"number","seq":0,"value":0}"# + "\n")
        XCTAssertEqual(try RivesyncProcess.run(["get", "character", "mood"], environment: ["RIVESYNC_URL": daemon.url]).stdout, "0\n")
        XCTAssertEqual(try rivesync("--version"), .init(status: 0, stdout: "rivesync 0.1.0\n", stderr: ""))
    }

    func testTokensFromAFileOrTheEnvironment() throws {
        let file = directory.appendingPathComponent("token").path
        try Data("reader-token-0123456789\n".utf8).write(to: file.url)
        XCTAssertEqual(try rivesync("get", "theme", "name", "--token-file", file), .init(status: 0, stdout: "\"Light\"\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("set", "theme", "name", "x", environment: ["RIVESYNC_TOKEN": "reader-token-0123456789"]).status, 5, "forbidden")
        XCTAssertEqual(try rivesync("get", "theme", "name", "--token", "wrong-token-0123456789").status, 4, "unauthorized")
        XCTAssertEqual(try rivesync("get", "theme", "name", "--token", "a", "--token-file", file).status, 64)
    }

    func testTheExitCodeTable() throws {
        let script = directory.appendingPathComponent("unmet.rsync").path
        try Data("set character mood 1\nexpect value character mood 2\n".utf8).write(to: script.url)
        let cases: [([String], Int32, String)] = [
            (["get", "character", "mood"], 0, ""),
            (["set", "theme", "mode", "sepia", "--json"], 7, "invalid_enum_value"),
            (["get", "character", "mod", "--json"], 6, "no_such_property"),
            (["get", "nowhere", "mood", "--json"], 6, "unknown_target"),
            (["advance", "character", "--json"], 8, "not_manual"),
            (["set", "theme", "name", "x", "--token", "reader-token-0123456789", "--json"], 5, "forbidden"),
            (["ls", "--token", "wrong-token-0123456789", "--json"], 4, "unauthorized"),
            (["ls", "--url", "ws://127.0.0.1:1/", "--json"], 3, "unreachable"),
            (["set", "manual", "mood", "3", "--timeout", "0.5", "--json"], 9, "timeout"),
            (["script", script, "--json"], 2, "expectation_failed"),
            (["get", "character", "--json"], 64, "usage"),
        ]
        for (arguments, status, code) in cases {
            let result = try RivesyncProcess.run(arguments, environment: ["RIVESYNC_URL": daemon.url])
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            if !code.isEmpty {
                XCTAssertTrue(
                    result.stderr.hasPrefix(#"{"error":{"code":"\#(code)","exit":\#(status),"message":"#), "\(arguments): \(result.stderr)")
            }
        }
        // 3 s: long enough to connect on a loaded machine, so the timeout is the acknowledgement's.
        let manual = try rivesync("set", "manual", "mood", "3", "--timeout", "3")
        XCTAssertEqual(
            manual.stderr,
            "rivesync: timed out after 3s ('manual' is a manual target: its commands apply on 'rivesync advance manual', or use --advance)\n"
        )
    }

    func testConnectTimeoutOnASilentServer() throws {
        let silent = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(silent) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(silent, $0, length) } }
        XCTAssertEqual(listen(silent, 8), 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(silent, $0, &length) }
        }
        let url = "ws://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/"
        XCTAssertEqual(
            try RivesyncProcess.run(["get", "character", "mood", "--url", url, "--timeout", "0.5"]),
            .init(status: 9, stdout: "", stderr: "rivesync: no answer from \(url) within 0.5s\n"))
        XCTAssertEqual(try RivesyncProcess.run(["watch", "character", "--url", url, "--timeout", "0.5"]).status, 9)
    }

    func testAdvanceAndSetWithAdvanceOnAManualTarget() throws {
        XCTAssertEqual(
            try rivesync("set", "manual", "mood", "4", "--advance", "--json"),
            .init(status: 0, stdout: #"{"target":"manual","seq":1,"command":1}"# + "\n", stderr: ""))
        XCTAssertEqual(try rivesync("get", "manual", "mood").stdout, "4\n")
        XCTAssertEqual(try rivesync("fire", "manual", "yes", "--advance").status, 0)
        XCTAssertEqual(
            try rivesync("advance", "manual", "--json"),
            .init(status: 0, stdout: #"{"target":"manual","seq":2,"settled":true}"# + "\n", stderr: ""))
        XCTAssertEqual(try rivesync("advance", "manual"), .init(status: 0, stdout: "", stderr: ""))
    }

    func testDump() throws {
        XCTAssertEqual(try rivesync("set", "theme", "name", "Dusk").status, 0)
        let whole = try rivesync("dump", "character")
        XCTAssertEqual(whole.status, 0, whole.stderr)
        XCTAssertTrue(whole.stdout.hasPrefix(#"{"target":"character","epoch":"e-"#), whole.stdout)
        XCTAssertTrue(whole.stdout.contains(#""seq":1,"bindings":[{"slot":"main","instance":"#), whole.stdout)
        XCTAssertTrue(whole.stdout.contains(#""viewModel":"Theme","name":"Light","values":{"accent":"#), whole.stdout)
        XCTAssertTrue(whole.stdout.contains(#""name":"Dusk""#), whole.stdout)
        let theme = try rivesync("dump", "character", "--path", "@Theme")
        XCTAssertTrue(theme.stdout.contains(##""viewModel":"Theme","name":"Light","values":{"accent":"#FF3D7BFF","##), theme.stdout)
        XCTAssertEqual(try rivesync("dump", "character", "--path", "mood"), .init(status: 0, stdout: "0\n", stderr: ""))
        XCTAssertEqual(try rivesync("dump", "character", "--path", "nope").status, 6)
    }

    func testWatchLinesHaveSeqAndTimeAndWatchTimesOut() throws {
        let watch = try RivesyncProcess.start(["watch", "character", "mood", "--current", "--count", "2", "--url", daemon.url])
        XCTAssertTrue(try watch.nextLine().hasPrefix(#"{"path":"mood","value":0,"seq":0,"time":""#), "subscribed before the set")
        XCTAssertEqual(try rivesync("set", "character", "mood", "2").status, 0)
        let line = try watch.nextLine()
        XCTAssertNotNil(
            line.range(
                of: #"^\{"path":"mood","value":2,"seq":1,"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"\}$"#, options: .regularExpression),
            line)
        XCTAssertEqual(try watch.finish().status, 0)
        // 3 s: long enough to connect on a loaded machine, so the end is the watch's own.
        XCTAssertEqual(try rivesync("watch", "character", "--timeout", "3"), .init(status: 0, stdout: "", stderr: ""))
        XCTAssertEqual(
            try rivesync("watch", "character", "--count", "1", "--timeout", "3"),
            .init(status: 9, stdout: "", stderr: "rivesync: timed out after 3s\n"))
    }
}

extension String {
    var url: URL { URL(fileURLWithPath: self) }
}
