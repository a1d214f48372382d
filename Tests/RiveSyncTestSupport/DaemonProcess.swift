import Foundation

/// A real `rivesyncd` started for a test on port 0: the bound port is read back from its
/// `listening on` line. `stop()` sends SIGTERM and waits; `stderr` is kept for failures.
/// Shared by the server, client and CLI tests; a daemon that is not built or does not start
/// fails the test (never skips it).
public final class DaemonProcess: @unchecked Sendable {
    public let child: ChildProcess
    public private(set) var port = 0

    /// The package root, from this file's path.
    public static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The built `rivesyncd` next to the test bundle, or the one `RIVESYNC_DAEMON` names (to
    /// see a test fail on an older build).
    public static func binary(_ name: String = "rivesyncd") -> String {
        if name == "rivesyncd", let chosen = ProcessInfo.processInfo.environment["RIVESYNC_DAEMON"] { return chosen }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for configuration in ["debug", "release"] {
            let path = packageRoot + "/.build/\(configuration)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return beside
    }

    /// Starts the daemon with `arguments` (plus `--port`, 0 by default) and waits until it
    /// listens. `environment` adds variables to the test's own; `stderrEnvironment` computes
    /// more from the stderr pipe's file descriptor (`JOURNAL_STREAM`, say).
    public init(
        _ arguments: [String], port requestedPort: Int = 0, environment: [String: String] = [:],
        stderrEnvironment: (Int32) -> [String: String] = { _ in [:] }
    ) throws {
        child = try ChildProcess(
            Self.binary(), arguments + ["--port", String(requestedPort)], environment: environment, stderrEnvironment: stderrEnvironment)
        var listening: Int?
        do {
            try waitUntilBlocking("the daemon to listen", seconds: 20) {
                listening = Self.listeningPort(in: child.stderr)
                return listening != nil || !child.isRunning
            }
        } catch is TimedOut {}  // thrown below as `didNotStart`, with what the daemon wrote
        if let listening {
            port = listening
            return
        }
        child.stop()
        throw DaemonError.didNotStart(stderr)
    }

    /// The port of the `listening on host:port` line in `text`.
    private static func listeningPort(in text: String) -> Int? {
        guard let range = text.range(of: #"listening on [^\s]+:(\d+)"#, options: .regularExpression) else { return nil }
        return Int(text[range].split(separator: ":").last ?? "")
    }

    public enum DaemonError: Error {
        case didNotStart(String)
        case unreadable(String)
    }

    public var url: String { "ws://127.0.0.1:\(port)/" }

    /// A TCP port that was free a moment ago (for restarting a daemon on the same port).
    public static func freePort() throws -> Int {
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
    public func crash() {
        child.signal(SIGKILL)
        child.stop()
    }
    public var stderr: String { child.stderr }
    public var pid: Int32 { child.pid }
    public var isRunning: Bool { child.isRunning }

    /// Resident memory of the daemon in KiB (from /proc).
    public var residentKiB: Int {
        get throws {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            guard let kib = line?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
                throw DaemonError.unreadable("no VmRSS in /proc/\(pid)/status: \(status)")
            }
            return kib
        }
    }

    /// SIGTERM, then wait (SIGKILL after 10 s). Returns the exit status.
    @discardableResult
    public func stop() -> Int32 { child.stop(graceSeconds: 10) }

    /// Writes a configuration file (and any extra files) into a new temporary directory and
    /// returns the configuration's path.
    public static func writeConfiguration(_ json: String, files: [String: String] = [:]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, contents) in files { try Data(contents.utf8).write(to: directory.appendingPathComponent(name)) }
        let path = directory.appendingPathComponent("config.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

extension DaemonProcess: StoppedAfterUse {
    public func stopAndWait() { stop() }

    /// Starts a daemon as `init` does, waiting for its `listening on` line on a dispatch
    /// thread (not the cooperative pool): the form for async tests.
    public static func start(
        _ arguments: [String], port: Int = 0, environment: [String: String] = [:],
        stderrEnvironment: @escaping @Sendable (Int32) -> [String: String] = { _ in [:] }
    ) async throws -> DaemonProcess {
        try await offThePool {
            try DaemonProcess(arguments, port: port, environment: environment, stderrEnvironment: stderrEnvironment)
        }
    }

    /// `stop()` on a dispatch thread: SIGTERM, wait; returns the exit status.
    @discardableResult
    public func stopped() async -> Int32 { await offThePool { self.stop() } }

    /// `crash()` on a dispatch thread: SIGKILL, wait.
    public func crashed() async { await offThePool { self.crash() } }
}

/// Starts a daemon (as `DaemonProcess.start`), runs `body` with it, and always stops it
/// afterwards, off the pool, also when `body` throws.
public func withDaemon<T>(
    _ arguments: [String], port: Int = 0, environment: [String: String] = [:], isolation: isolated (any Actor)? = #isolation,
    _ body: (DaemonProcess) async throws -> T
) async throws -> T {
    try await stopping(try await DaemonProcess.start(arguments, port: port, environment: environment), isolation: isolation, body)
}
