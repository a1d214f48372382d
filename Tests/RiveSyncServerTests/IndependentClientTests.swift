import Foundation
import RiveSyncTestSupport
import Testing

/// Runs clients written from PROTOCOL.md only, over Debian's `python3-websockets`, against a
/// fresh `rivesyncd --demo`: `independent_client.py` drives the daemon; `transaction_client.py`
/// checks transactions and authors on the wire (§16, §17).
@Suite struct IndependentClientTests {
    @Test(arguments: [("independent_client.py", 300.0), ("transaction_client.py", 120.0)])
    func independentClientAgainstTheDaemon(script name: String, within seconds: Double) async throws {
        try await withDaemon(["--demo"]) { daemon in
            let script = try PythonScript(name, python: PythonScript.debianPython, arguments: [daemon.url])
            defer { script.stop() }
            // A hang guard only: the script's own reads time out well before this.
            let status = await script.finish(within: seconds)
            #expect(
                status == 0,
                "\(name) \(status.map { "exited with \($0)" } ?? "hung and was stopped"):\n\(script.output)\n--- rivesyncd stderr ---\n\(daemon.stderr)"
            )
        }
    }
}
