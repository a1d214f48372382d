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

    /// Starts the daemon with `arguments` (plus `--port`, 0 by default) and waits until it
    /// listens.
    init(_ arguments: [String], port requestedPort: Int = 0) throws {
        process.executableURL = URL(fileURLWithPath: Self.binary())
        process.arguments = arguments + ["--port", String(requestedPort)]
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

    /// A TCP port that was free a moment ago (for restarting a daemon on the same port).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw DaemonError.didNotStart("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Kills the daemon with SIGKILL (a crash) and waits for it.
    func crash() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
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
