import Foundation
import RiveSyncTestSupport
import Testing

/// Issue 4's Theme test: two separate client processes bound to the same global `Theme`
/// instance. `theme_subscriber.py` subscribes (target `character` path `@Theme/background`,
/// and target `theme`) and prints `ready`; then `theme_writer.py` sets target `theme` path
/// `background`; the subscriber must see the write in the next batch of each target.
@Suite struct ThemeTests {
    @Test func aWriteByOneProcessReachesTheOtherInTheNextBatch() async throws {
        try await withDaemon(["--demo"]) { daemon in
            let color = "#FF203040"
            let subscriber = try PythonScript("theme_subscriber.py", python: PythonScript.debianPython, arguments: [daemon.url, color])
            defer { subscriber.stop() }
            let ready = await subscriber.waitForLine("ready", seconds: 120)
            try #require(ready, "theme_subscriber.py did not get ready:\n\(subscriber.output)\n--- rivesyncd stderr ---\n\(daemon.stderr)")

            let writer = try PythonScript("theme_writer.py", python: PythonScript.debianPython, arguments: [daemon.url, color])
            defer { writer.stop() }
            // Hang guards only.
            let writerStatus = await writer.finish(within: 120)
            let subscriberStatus = await subscriber.finish(within: 120)
            let report =
                "--- writer ---\n\(writer.output)\n--- subscriber ---\n\(subscriber.output)\n--- rivesyncd stderr ---\n\(daemon.stderr)"
            #expect(writerStatus == 0, "theme_writer.py \(writerStatus.map { "exited with \($0)" } ?? "hung"):\n\(report)")
            #expect(subscriberStatus == 0, "theme_subscriber.py \(subscriberStatus.map { "exited with \($0)" } ?? "hung"):\n\(report)")
        }
    }
}
