import Foundation
import RiveSyncTransport

/// Runs a `Daemon` the way `systemd/rivesyncd.service` expects (`Type=notify`): accepts on a
/// socket-activated listener when one was passed, reports `READY=1` / `STATUS=` / `RELOADING=1`
/// / `STOPPING=1` over `$NOTIFY_SOCKET`, feeds the watchdog from liveness probes, reloads limits
/// and tokens on SIGHUP and drains on SIGTERM. Without systemd's variables it just runs the daemon.
///
/// `start`, `reload` and `drain` are called from `rivesyncd`'s signal loop, one at a time.
public final class Supervisor: Sendable {
    private let daemon: Daemon
    private let configurationPath: String?
    private let log: Log
    private let notifier: SystemdNotifier?
    private let watchdogInterval: Duration?
    private let running = Locked<Running>(Running())

    private struct Running {
        var acceptor: SocketAcceptor?
        var watchdog: Watchdog?
        var endpoint = ""
    }

    /// - Parameters:
    ///   - daemon: built with `listenDescriptor` set when `SocketActivation` found a socket.
    ///   - configurationPath: the `--config` file SIGHUP re-reads (nil for `--demo`).
    ///   - environment: where `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` are read.
    public init(
        daemon: Daemon, configurationPath: String?, log: Log,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.daemon = daemon
        self.configurationPath = configurationPath
        self.log = log
        notifier = SystemdNotifier(environment: environment)
        watchdogInterval = Watchdog.interval(environment: environment)
    }

    /// Starts serving, then the watchdog, then reports `READY=1`.
    /// - Returns: where the daemon listens, for humans (`127.0.0.1:7420`, `inherited socket fd 3`).
    public func start() throws -> String {
        let port = try daemon.start()
        var state = Running()
        if let listener = daemon.context.configuration.listenDescriptor {
            state.acceptor = try SocketAcceptor(listener: listener, log: log) { [daemon] in daemon.adopt($0) }
            state.endpoint = "inherited socket fd \(listener)"
        } else {
            state.endpoint = "\(daemon.context.configuration.host):\(port)"
        }
        if let notifier, let interval = watchdogInterval {
            state.watchdog = Watchdog(interval: interval, notifier: notifier, log: log) { [daemon] in daemon.probe(timeout: interval) }
        }
        let endpoint = state.endpoint
        running.withLock { $0 = state }
        notifier?.notify("READY=1\nSTATUS=serving on \(endpoint)")
        return endpoint
    }

    /// SIGHUP, between `RELOADING=1` and `READY=1`: re-reads the configuration file and applies
    /// the reloadable limits, then the tokens file (`Daemon.reloadTokens`). A file that cannot
    /// be read or is invalid is logged and ignored; the daemon keeps what it had.
    public func reload() {
        notifier?.notify("RELOADING=1\nSTATUS=reloading\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())")
        reloadLimits()
        do { try daemon.reloadTokens() } catch {
            log(.error, "reload: tokens file rejected; keeping the old tokens", [("error", "\(error)")])
        }
        notifier?.notify("READY=1\nSTATUS=serving on \(running.withLock { $0.endpoint })")
    }

    /// Applies the reloadable limits of the configuration file, logging each change.
    private func reloadLimits() {
        guard let path = configurationPath else {
            return log(.info, "reload: no configuration file (started with --demo); limits unchanged")
        }
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonCommandLine.read(path)
        } catch {
            return log(.error, "reload: configuration rejected; keeping the running one", [("path", path), ("error", "\(error)")])
        }
        let changes = daemon.reloadLimits(configuration.limits)
        for change in changes { log(.info, "reload: limit", [("change", change)]) }
        log(.info, "reload: done", [("path", path), ("changes", "\(changes.count)")])
    }

    /// SIGTERM: reports `STOPPING=1`, stops the watchdog and the acceptor, then stops the daemon
    /// (every client gets close 1001; worker queues are drained, which is where state is
    /// flushed). The caller exits 0 afterwards.
    public func drain() {
        notifier?.notify("STOPPING=1\nSTATUS=draining")
        let state = running.withLock { $0 }
        state.watchdog?.stop()
        state.acceptor?.stop()
        daemon.stop()
        log(.info, "stopped")
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}
