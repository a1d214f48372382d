import Foundation
import RiveSyncTestSupport

/// A Python script from `Tests/RiveSyncServerTests/python/` run as a child process, with its
/// stdout and stderr collected together. `finish(within:)` is a hang guard: a script still
/// running at the deadline gets SIGTERM (its own clean-up runs), then SIGKILL.
final class PythonScript: Sendable {
    /// `python3` on PATH (pyenv's on the developers' machines and CI: PyPI packages).
    static let pathPython = "python3"
    /// Debian's interpreter (Debian packages such as `python3-websockets` only work with it).
    static let debianPython = "/usr/bin/python3"

    let name: String
    let child: ChildProcess

    static func path(_ script: String) -> String { DaemonProcess.packageRoot + "/Tests/RiveSyncServerTests/python/" + script }

    init(_ script: String, python: String, arguments: [String]) throws {
        name = script
        child = try ChildProcess(python, ["-u", Self.path(script)] + arguments, output: .merged)
    }

    /// What the script printed so far (stdout and stderr).
    var output: String { child.stdout }

    /// Waits until the script printed `line` as a whole line; false when it exited without, or
    /// `seconds` passed (the caller's `#require` then shows the output).
    func waitForLine(_ line: String, seconds: Double) async -> Bool {
        do {
            try await child.waitForOutput("the line \(line) from \(name)", seconds: seconds) { output, _ in
                output.split(separator: "\n").contains { $0 == line } ? true : nil
            }
            return true
        } catch {
            return false
        }
    }

    /// Waits for the script to exit; returns its exit status, or nil when it was still running
    /// after `seconds` (it is then stopped).
    func finish(within seconds: Double) async -> Int32? {
        do {
            try await waitUntil("\(name) to exit", seconds: seconds) { !child.isRunning }
        } catch {
            child.stop(graceSeconds: 5)
            return nil
        }
        return child.stop()  // exited already: its status, once its output has ended
    }

    /// SIGTERM, then SIGKILL after 5 s; waits for the exit.
    func stop() { child.stop(graceSeconds: 5) }
}
