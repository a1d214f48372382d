import Foundation

/// Keeps the systemd watchdog fed (`WatchdogSec=`), but only while the daemon's loops are alive.
///
/// Every half interval one probe round passes through the dispatcher (its lock and its queue),
/// every worker's host and the transport's service thread (an HTTP `GET /healthz` over a socket
/// pair adopted by the transport); `WATCHDOG=1` is sent only when the whole round completes. A
/// wedged lock or queue blocks the round, a wedged service thread times it out, and systemd
/// then restarts the daemon.
final class Watchdog: Sendable {
    private let stopRequested = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Half of `WATCHDOG_USEC`, when the watchdog is enabled for this process (`WATCHDOG_PID`
    /// unset or equal to our pid); nil otherwise.
    static func interval(environment: [String: String]) -> Duration? {
        guard let usec = environment["WATCHDOG_USEC"].flatMap({ UInt64($0) }), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"].flatMap({ Int32($0) }), pid != getpid() { return nil }
        return .microseconds(Int64(usec / 2))
    }

    /// Starts the probe thread: every `interval`, `probe` runs and on success `notifier` gets `WATCHDOG=1`.
    init(interval: Duration, notifier: SystemdNotifier, log: Log, probe: @escaping @Sendable () -> Bool) {
        let (stopRequested, finished) = (stopRequested, finished)
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let thread = Thread {
            while stopRequested.wait(timeout: .now() + seconds) == .timedOut {
                if probe() {
                    notifier.notify("WATCHDOG=1")
                } else {
                    log(.warning, "watchdog probe failed; not notifying systemd")
                }
            }
            finished.signal()
        }
        thread.name = "rivesyncd.watchdog"
        thread.start()
    }

    /// Stops the probes; waits for a round in progress to end.
    func stop() {
        stopRequested.signal()
        finished.wait()
    }
}
