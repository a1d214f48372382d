import RiveSyncTestSupport
import Testing

/// The Python suites that drive the real `rivesyncd` over raw sockets and a simulated systemd
/// (`python/raw_socket.py`, `python/supervision.py`; each documents its cases). Debian's
/// python3 (standard library only); the daemon binary is passed as the argument.
@Suite struct RobustnessScriptTests {
    /// Runs `script` to completion (hang guard `seconds`) and expects exit status 0.
    static func run(_ script: String, seconds: Double) async throws {
        let python = try PythonScript(script, python: PythonScript.debianPython, arguments: [DaemonProcess.binary()])
        let status = await python.finish(within: seconds)
        #expect(status == 0, "\(script) exited with \(status.map { "\($0)" } ?? "nothing (hang guard)"):\n\(python.output)")
    }

    /// Malformed frames and handshakes (close codes, HTTP statuses), 16 GiB frame headers with
    /// bounded memory, a desync stream; the daemon serves a normal client afterwards.
    @Test func rawSocketRobustness() async throws {
        try await Self.run("raw_socket.py", seconds: 180)
    }

    /// sd_notify sequence and watchdog, SIGHUP limit reload (good and bad files), SIGTERM drain
    /// with close 1001 and exit 0, socket activation via systemd-socket-activate, and a notify
    /// receiver that never reads.
    @Test func supervisionUnderSimulatedSystemd() async throws {
        try await Self.run("supervision.py", seconds: 180)
    }
}
