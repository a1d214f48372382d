import Dispatch

/// Where the daemon reads the time and sets its timers (the workers' and the dispatcher's):
/// the system's monotonic clock, or a test's that it moves by hand. Nanoseconds on one
/// monotonic scale.
public protocol DaemonClock: Sendable {
    /// Now, in nanoseconds.
    func now() -> UInt64

    /// Runs `work` on `queue` once the clock reaches `at` (at once if it has).
    func schedule(at: UInt64, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
}

/// The system's monotonic clock (`DispatchTime`); timers through `asyncAfter`.
public struct SystemClock: DaemonClock {
    public init() {}

    public func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    public func schedule(at: UInt64, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: at), execute: work)
    }
}
