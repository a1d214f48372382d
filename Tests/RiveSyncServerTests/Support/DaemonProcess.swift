import Foundation
import RiveSyncTransport

/// A real `rivesyncd` started for a test on port 0: the bound port is read back from its
/// `listening on` line. `stop()` sends SIGTERM and waits; `stderr` is kept for failures.
final class DaemonProcess: @unchecked Sendable {
    let process = Process()
    private(set) var port = 0
    private let output = Locked("")

    /// The package root, from this file's path.
    static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/")
    }()

    /// The built `rivesyncd` next to the test bundle.
    static func binary(_ name: String = "rivesyncd") -> String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for configuration in ["debug", "release"] {
            let path = packageRoot + "/.build/\(configuration)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return beside
    }

    /// Starts the daemon with `arguments` (plus `--port 0`) and waits until it listens.
    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Self.binary())
        process.arguments = arguments + ["--port", "0"]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        let output = self.output
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { output.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = output.withLock { $0 }
            if let range = text.range(of: #"listening on [^\s]+:(\d+)"#, options: .regularExpression) {
                port = Int(text[range].split(separator: ":").last!)!
                return
            }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        stop()
        throw DaemonError.didNotStart(stderr)
    }

    enum DaemonError: Error { case didNotStart(String) }

    var url: String { "ws://127.0.0.1:\(port)/" }
    var stderr: String { output.withLock { $0 } }
    var pid: Int32 { process.processIdentifier }

    /// Resident memory of the daemon in KiB (from /proc).
    var residentKiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// SIGTERM, then wait (SIGKILL after 10 s). Returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { stop() }
}
