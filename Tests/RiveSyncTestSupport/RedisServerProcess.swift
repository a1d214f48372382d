import Foundation

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
    /// More `redis-server` options (`--replicaof`, `--min-replicas-to-write`), on every run.
    public let extraArguments: [String]
    private var child: ChildProcess?
    /// What the earlier runs logged.
    private var earlierLog = ""

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

    /// Starts a server; `appendfsync` is Redis's AOF policy (`always`, `everysec`, `no`),
    /// `arguments` more options.
    public init(appendfsync: String = "always", arguments: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.appendfsync = appendfsync
        extraArguments = arguments
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
        try? FileManager.default.removeItem(at: directory)  // cleanup of a server that never started
        throw lastError
    }

    /// `redis://127.0.0.1:<port>`.
    public var url: String { "redis://127.0.0.1:\(port)" }
    /// What the server has logged (stdout and stderr, all its runs).
    public var log: String { earlierLog + (child?.stdout ?? "") }
    public var pid: Int32? { child?.pid }
    public var isRunning: Bool { child?.isRunning ?? false }

    private static let binary: String? = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private func launch() throws {
        guard let binary = Self.binary else { throw RedisServerError.notInstalled }
        if let child { earlierLog += child.stdout }
        let child = try ChildProcess(
            binary,
            [
                "--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path, "--appendonly", "yes", "--appendfsync", appendfsync,
                "--save", "", "--daemonize", "no", "--protected-mode", "yes", "--logfile", "",
            ] + extraArguments, output: .merged)
        self.child = child
        do {
            try waitUntilBlocking("redis-server to accept connections", seconds: 20) {
                if child.stdout.contains("Ready to accept connections") { return true }
                guard child.isRunning else { throw RedisServerError.didNotStart(child.stdout) }
                return false
            }
        } catch {
            stopProcess()
            throw RedisServerError.didNotStart("\(error)\n\(child.stdout)")
        }
    }

    /// `kill -9`: Redis dies without a chance to write anything more.
    public func crash() {
        guard let child, child.isRunning else { return }
        child.signal(SIGKILL)
        waitForExit(child)
    }

    /// Starts the server again on the same port and directory (after `crash` or `stop`): it
    /// loads its append-only file.
    public func restart() throws {
        guard !isRunning else { return }
        try launch()
    }

    /// `SIGSTOP`: Redis stops answering but keeps its connections.
    public func freeze() {
        if let child, child.isRunning { child.signal(SIGSTOP) }
    }

    /// `SIGCONT` after `freeze`.
    public func thaw() {
        if let child, child.isRunning { child.signal(SIGCONT) }
    }

    /// Asks the server to shut down (`redis-cli shutdown`, after a thaw), then waits; SIGKILL
    /// after 10 s. (Not SIGTERM: a child of the test runner starts with almost every signal
    /// blocked, and Redis does not unblock them.)
    public func stop() { stopProcess() }

    private func stopProcess() {
        guard let child, child.isRunning else { return }
        child.signal(SIGCONT)
        // The shutdown request's own outcome does not matter: the wait below decides.
        _ = try? ChildProcess.run("/usr/bin/redis-cli", ["-h", "127.0.0.1", "-p", String(port), "shutdown"], seconds: 10)
        do {
            try waitUntilBlocking("redis-server to exit after shutdown", seconds: 10) { !child.isRunning }
        } catch {
            child.signal(SIGKILL)
        }
        waitForExit(child)
    }

    /// Waits for a child that was told to end (SIGKILL at the latest) to be gone.
    private func waitForExit(_ child: ChildProcess) {
        do {
            try waitUntilBlocking("redis-server to exit", seconds: 30) { !child.isRunning }
        } catch {
            // A process SIGKILL did not end in 30 s: nothing a test can do; say so.
            FileHandle.standardError.write(Data("redis-server \(child.pid) did not exit: \(error)\n".utf8))
        }
    }

    deinit {
        stopProcess()
        try? FileManager.default.removeItem(at: directory)  // cleanup; a leftover temp directory harms nothing
    }
}

extension RedisServerProcess: StoppedAfterUse {
    public func stopAndWait() { stop() }

    /// Starts a server as `init` does, on a dispatch thread (not the cooperative pool).
    public static func start(appendfsync: String = "always") async throws -> RedisServerProcess {
        try await offThePool { try RedisServerProcess(appendfsync: appendfsync) }
    }

    /// `crash()` on a dispatch thread.
    public func crashed() async { await offThePool { self.crash() } }

    /// `restart()` on a dispatch thread.
    public func restarted() async throws { try await offThePool { try self.restart() } }
}
