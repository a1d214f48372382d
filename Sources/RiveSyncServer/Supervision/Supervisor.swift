import Foundation
import RiveSyncTransport

/// Runs a `Daemon` the way `systemd/rivesyncd.service` expects (`Type=notify`): accepts on a
/// socket-activated listener when one was passed, reports `READY=1` / `STATUS=` / `RELOADING=1`
/// / `STOPPING=1` over `$NOTIFY_SOCKET`, feeds the watchdog from liveness probes, reloads limits,
/// the log level, tokens and certificates on SIGHUP and drains on SIGTERM. Without systemd's variables it just runs the daemon.
///
/// `start`, `reload` and `drain` are called from `rivesyncd`'s signal loop, one at a time.
public final class Supervisor: Sendable {
    private let daemon: Daemon
    private let commandLine: DaemonCommandLine
    private let log: Log
    private let notifier: SystemdNotifier?
    private let watchdogInterval: Duration?
    private let running = Locked<Running>(Running())

    private struct Running {
        var acceptor: SocketAcceptor?
        var watchdog: Watchdog?
        var endpoint = ""
        /// What runs now: the start's configuration with the changes SIGHUP applied since.
        var configuration = DaemonConfiguration()
    }

    /// - Parameters:
    ///   - daemon: built with `listenDescriptor` set when `SocketActivation` found a socket.
    ///   - commandLine: the flags, whose `--config` file SIGHUP re-reads (none for `--demo`).
    ///   - environment: where `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` are read.
    public init(
        daemon: Daemon, commandLine: DaemonCommandLine, log: Log,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.daemon = daemon
        self.commandLine = commandLine
        self.log = log
        notifier = SystemdNotifier(environment: environment)
        watchdogInterval = Watchdog.interval(environment: environment)
    }

    /// Starts serving, then the watchdog, then reports `READY=1`.
    /// - Returns: where the daemon listens, for humans (`127.0.0.1:7420`, `inherited socket fd 3`).
    public func start() throws -> String {
        let port = try daemon.start()
        var state = Running()
        state.configuration = daemon.context.configuration
        if let listener = daemon.context.configuration.listenDescriptor {
            state.acceptor = try SocketAcceptor(listener: listener, log: log) { [daemon] in daemon.adopt($0) }
            let configuration = daemon.context.configuration
            state.endpoint = configuration.sharesPort ? "\(configuration.host):\(configuration.port)" : "inherited socket fd \(listener)"
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
    /// what can change while running (`reloadConfiguration`), then the tokens file
    /// (`Daemon.reloadTokens`) and the TLS certificate and key files. A file that cannot be read
    /// or is invalid is logged and ignored; the daemon keeps what it had.
    public func reload() {
        notifier?.notify("RELOADING=1\nSTATUS=reloading\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())")
        reloadConfiguration()
        do { try daemon.reloadTokens() } catch {
            log(.error, "reload: tokens file rejected; keeping the old tokens", [("error", "\(error)")])
        }
        daemon.reloadCertificates()
        notifier?.notify("READY=1\nSTATUS=serving on \(running.withLock { $0.endpoint })")
    }

    /// Applies the reloadable limits and `logLevel` of the configuration file, logging each
    /// change, and logs every other changed key as needing a restart.
    private func reloadConfiguration() {
        guard let path = commandLine.configurationPath else {
            return log(.info, "reload: no configuration file (started with --demo); nothing to re-read")
        }
        let new: DaemonConfiguration
        do {
            new = try commandLine.configuration()
        } catch {
            for line in error.lines {
                log(.error, "reload: configuration rejected; keeping the running one", [("path", path), ("error", line)])
            }
            return
        }
        var running = self.running.withLock { $0.configuration }
        var (applied, ignored) = (0, 0)
        for change in daemon.reloadLimits(new.limits) {
            let key = "limits.\(change.name)"
            if change.applied {
                applied += 1
                log(.info, "reload: applied", [("key", key), ("old", "\(change.old)"), ("new", "\(change.new)")])
            } else {
                ignored += 1
                log(.warning, "reload: not applied; needs a restart", [("key", key), ("old", "\(change.old)"), ("new", "\(change.new)")])
            }
        }
        running.limits = daemon.context.limits.withLock { $0 }
        if running.logLevel != new.logLevel {
            log(.info, "reload: applied", [("key", "logLevel"), ("old", running.logLevel.rawValue), ("new", new.logLevel.rawValue)])
            log.minimum = new.logLevel
            log.routeTransportLines()
            running.logLevel = new.logLevel
            applied += 1
        }
        if running.logFormat != new.logFormat {
            log(.info, "reload: applied", [("key", "logFormat"), ("old", running.logFormat.rawValue), ("new", new.logFormat.rawValue)])
            log.format = new.logFormat
            running.logFormat = new.logFormat
            applied += 1
        }
        for key in running.changedKeys(to: new) where !key.hasPrefix("limits.") {
            ignored += 1
            log(.warning, "reload: not applied; needs a restart", [("key", key)])
        }
        self.running.withLock { $0.configuration = running }
        log(.info, "reload: done", [("path", path), ("applied", "\(applied)"), ("ignored", "\(ignored)")])
    }

    /// SIGTERM: reports `STOPPING=1`, stops the watchdog and the acceptor, then stops the daemon
    /// (every client gets close 1001; worker queues are drained, which is where state is
    /// flushed). The caller exits 0 afterwards.
    public func drain() {
        notifier?.notify("STOPPING=1\nSTATUS=draining")
        daemon.ready.withLock { $0 = false }
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
