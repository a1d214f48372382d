import Foundation
import RiveSyncTestSupport

extension DaemonProcess {
    /// The daemon's stderr lines so far.
    var stderrLines: [Substring] { stderr.split(separator: "\n") }

    /// Waits until a stderr line after the first `skipping` lines contains `text`; returns it.
    @discardableResult
    func waitForLine(containing text: String, skipping: Int = 0, seconds: Double = 15) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let line = stderrLines.dropFirst(skipping).first(where: { $0.contains(text) }) { return String(line) }
            guard Date() < deadline, process.isRunning else { throw TestClient.Timeout(what: "a line with '\(text)' in:\n\(stderr)") }
            try await Task.sleep(nanoseconds: 10_000_000)
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
