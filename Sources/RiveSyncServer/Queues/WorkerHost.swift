/// Where a worker's events run: one at a time, in the order they are posted, on one thread at
/// a time (what makes `WorkerShell`'s `@unchecked Sendable` sound). A service thread of the
/// transport in the daemon (`TransportHost`), a serial queue in-process and on a cluster node
/// (`QueueHost`).
package protocol WorkerHost: AnyObject, Sendable {
    /// Runs `work` after everything posted before it.
    func async(_ work: @escaping @Sendable () -> Void)

    /// Runs `work` after everything posted before it and returns its result: inline when the
    /// caller is already on the host, else posted and waited for.
    func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T

    /// Runs `work` on the host once the daemon's clock reaches `at` (nanoseconds, `DaemonClock`).
    func schedule(at: UInt64, _ work: @escaping @Sendable () -> Void)

    /// Stops a debug build when the caller is not on the host. Release builds check nothing.
    func assertConfined()
}

/// How the daemon hosts its workers.
public enum WorkerHosting: Sendable {
    /// Worker `w` on service thread `w % transportThreads` once the transport runs (inline,
    /// under a lock, before it starts and after it stops). Cluster nodes keep `queues`.
    case serviceThreads
    /// A serial `DispatchQueue` per worker, timers through the `DaemonClock`.
    case queues
}
