import Foundation
import RiveSyncTransport
import RiveSyncTestSupport

/// A Python script from `Tests/RiveSyncServerTests/python/` run as a child process, with its
/// stdout and stderr collected together. `finish(within:)` is a hang guard: a script still
/// running at the deadline gets SIGTERM (its own clean-up runs), then SIGKILL.
final class PythonScript: @unchecked Sendable {
    /// `python3` on PATH (pyenv's on the developers' machines and CI: PyPI packages).
    static let pathPython = "python3"
    /// Debian's interpreter (Debian packages such as `python3-websockets` only work with it).
    static let debianPython = "/usr/bin/python3"

    let name: String
    let process = Process()
    private let collected = Locked("")

    static func path(_ script: String) -> String { DaemonProcess.packageRoot + "/Tests/RiveSyncServerTests/python/" + script }

    init(_ script: String, python: String, arguments: [String]) throws {
        name = script
        if python.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-u", Self.path(script)] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [python, "-u", Self.path(script)] + arguments
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let collected = self.collected
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
            } else {
                collected.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        try process.run()
    }

    /// What the script printed so far (stdout and stderr).
    var output: String { collected.withLock { $0 } }

    /// Waits until the script printed `line` as a whole line, or exited, or `seconds` passed.
    func waitForLine(_ line: String, seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if output.split(separator: "\n").contains(where: { $0 == line }) { return true }
            if !process.isRunning { return output.split(separator: "\n").contains(where: { $0 == line }) }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return false
    }

    /// Waits for the script to exit; returns its exit status, or nil when it was still running
    /// after `seconds` (it is then stopped).
    func finish(within seconds: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
        if process.isRunning {
            stop()
            return nil
        }
        process.waitUntilExit()
        // Let the pipe's handler deliver the last bytes.
        try? await Task.sleep(nanoseconds: 100_000_000)
        return process.terminationStatus
    }

    /// SIGTERM, then SIGKILL after 5 s; waits for the exit.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
