import Foundation
import RiveSyncTestSupport
import Testing

/// Runs `python/independent_client.py` — a client written from PROTOCOL.md only, over
/// Debian's `python3-websockets` — against a fresh `rivesyncd --demo`.
@Suite struct IndependentClientTests {
    @Test func independentClientDrivesTheDaemon() async throws {
        let daemon = try DaemonProcess(["--demo"])
        defer { daemon.stop() }
        let script = try PythonScript("independent_client.py", python: PythonScript.debianPython, arguments: [daemon.url])
        defer { script.stop() }
        // A hang guard only: the script's own reads time out well before this.
        let status = await script.finish(within: 300)
        #expect(
            status == 0,
            "independent_client.py \(status.map { "exited with \($0)" } ?? "hung and was stopped"):\n\(script.output)\n--- rivesyncd stderr ---\n\(daemon.stderr)"
        )
    }

    /// `python/transaction_client.py`: transactions and authors on the wire, from PROTOCOL.md
    /// §16 and §17 only.
    @Test func independentClientSeesTransactionsAndAuthors() async throws {
        let daemon = try DaemonProcess(["--demo"])
        defer { daemon.stop() }
        let script = try PythonScript("transaction_client.py", python: PythonScript.debianPython, arguments: [daemon.url])
        defer { script.stop() }
        // A hang guard only: the script's own reads time out well before this.
        let status = await script.finish(within: 120)
        #expect(
            status == 0,
            "transaction_client.py \(status.map { "exited with \($0)" } ?? "hung and was stopped"):\n\(script.output)\n--- rivesyncd stderr ---\n\(daemon.stderr)"
        )
    }
}
