import Foundation
import Synchronization

/// A real `redis-server` started for a test on a free loopback port, with its own temporary
/// directory and `appendonly yes` (`appendfsync always` unless told otherwise), no RDB saves.
/// It can be crashed (`SIGKILL`), frozen and thawed, and restarted on the same port and
/// directory (so it reloads its AOF). `stop()` (also on release) ends it and removes the
/// directory. A missing `redis-server` fails the test that needs it (`.ci/setup-tests.sh`
/// installs it); it never skips.
public final class RedisServerProcess: @unchecked Sendable {
    public private(set) var port = 0
    public let directory: URL
    public let appendfsync: String
    private var process: Process?
    private let output = Output()

    /// Everything the server logged (stdout and stderr, all its runs).
    private final class Output: Sendable {
        let text = Mutex("")
        func withLock<T>(_ body: (inout String) -> T) -> T { text.withLock { body(&$0) } }
    }

    public enum RedisServerError: Error, CustomStringConvertible {
        case notInstalled
        case didNotStart(String)

        public var description: String {
            switch self {
            case .notInstalled: "redis-server is not installed (sh .ci/setup-tests.sh installs it)"
            case .didNotStart(let log): "redis-server did not start:\n\(log)"
            }
        }
    }

    /// Starts a server; `appendfsync` is Redis's AOF policy (`always`, `everysec`, `no`).
    public init(appendfsync: String = "always") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.appendfsync = appendfsync
        var lastError: Error = RedisServerError.notInstalled
        // A port free a moment ago may be taken by the time Redis binds it: try a few.
        for _ in 0..<3 {
            let port = try DaemonProcess.freePort()
            do {
                self.port = port
                try launch()
                return
            } catch let error as RedisServerError {
                lastError = error
                if case .notInstalled = error { break }
            }
        }
        try? FileManager.default.removeItem(at: directory)
        throw lastError
    }

    /// `redis://127.0.0.1:<port>`.
    public var url: String { "redis://127.0.0.1:\(port)" }
    /// What the server has logged (all its runs).
    public var log: String { output.withLock { $0 } }
    public var pid: Int32? { process?.processIdentifier }
    public var isRunning: Bool { process?.isRunning ?? false }

    private static let binary: String? = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private func launch() throws {
        guard let binary = Self.binary else { throw RedisServerError.notInstalled }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path, "--appendonly", "yes", "--appendfsync", appendfsync,
            "--save", "", "--daemonize", "no", "--protected-mode", "yes", "--logfile", "",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let output = self.output
        let mark = output.withLock { $0.count }
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
            } else {
                output.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = output.withLock { String($0.dropFirst(mark)) }
            if text.contains("Ready to accept connections") { return }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        stopProcess()
        throw RedisServerError.didNotStart(output.withLock { String($0.dropFirst(mark)) })
    }

    /// `kill -9`: Redis dies without a chance to write anything more.
    public func crash() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Starts the server again on the same port and directory (after `crash` or `stop`): it
    /// loads its append-only file.
    public func restart() throws {
        guard !isRunning else { return }
        try launch()
    }

    /// `SIGSTOP`: Redis stops answering but keeps its connections.
    public func freeze() {
        if let process, process.isRunning { kill(process.processIdentifier, SIGSTOP) }
    }

    /// `SIGCONT` after `freeze`.
    public func thaw() {
        if let process, process.isRunning { kill(process.processIdentifier, SIGCONT) }
    }

    /// Asks the server to shut down (`redis-cli shutdown`, after a thaw), then waits; SIGKILL
    /// after 10 s. (Not SIGTERM: a child of the test runner starts with almost every signal
    /// blocked, and Redis does not unblock them.)
    public func stop() { stopProcess() }

    private func stopProcess() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        client.arguments = ["-h", "127.0.0.1", "-p", String(port), "shutdown"]
        client.standardOutput = FileHandle.nullDevice
        client.standardError = FileHandle.nullDevice
        if (try? client.run()) != nil { client.waitUntilExit() }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        stopProcess()
        try? FileManager.default.removeItem(at: directory)
    }
}
