import Foundation
import RiveSyncTestSupport

extension DaemonProcess {
    /// The daemon's stderr lines so far.
    var stderrLines: [Substring] { stderr.split(separator: "\n") }

    /// Waits until a stderr line after the first `skipping` lines contains `text`; returns it.
    @discardableResult
    func waitForLine(containing text: String, skipping: Int = 0, seconds: Double = defaultWaitSeconds) async throws -> String {
        try await child.waitForOutput("a line with '\(text)' in:\n\(stderr)", seconds: seconds) { _, stderr in
            stderr.split(separator: "\n").dropFirst(skipping).first { $0.contains(text) }.map(String.init)
        }
    }

    /// Sends SIGHUP and waits for the reload to finish (`reload: done`); returns the lines the
    /// reload logged.
    func reload() async throws -> [String] {
        let mark = stderrLines.count
        kill(pid, SIGHUP)
        try await waitForLine(containing: #"msg="reload: done""#, skipping: mark)
        return stderrLines.dropFirst(mark).map(String.init)
    }
}
