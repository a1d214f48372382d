import Foundation
import RiveSyncTestSupport
import Testing

/// Runs `python/digest_from_document.py`: the state digest recomputed from PROTOCOL.md §7
/// alone (its worked example, and live targets with a property of every type) equals the
/// daemon's.
@Suite struct DigestDocumentTests {
    @Test func theDocumentedDigestIsTheDaemons() async throws {
        try await withDaemon(["--demo"]) { daemon in
            let script = try PythonScript("digest_from_document.py", python: PythonScript.debianPython, arguments: [daemon.url])
            defer { script.stop() }
            let status = await script.finish(within: 120)
            #expect(status == 0, "digest_from_document.py: \(script.output)\n--- rivesyncd stderr ---\n\(daemon.stderr)")
        }
    }
}
