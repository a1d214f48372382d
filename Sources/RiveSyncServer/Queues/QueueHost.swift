import Dispatch

/// A worker hosted on its own serial `DispatchQueue`, its timers set through the daemon's
/// clock (`DaemonClock.schedule`): the in-process daemon (no transport) and cluster nodes
/// (`RedisChangeLog` delivers its answers on this queue and checks it).
package final class QueueHost: WorkerHost {
    package let queue: DispatchQueue
    let clock: any DaemonClock

    init(label: String, clock: any DaemonClock) {
        queue = DispatchQueue(label: label)
        self.clock = clock
    }

    package func async(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

    package func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        let result: Result<T, E> = queue.sync {
            do throws(E) { return .success(try work()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    package func schedule(at: UInt64, _ work: @escaping @Sendable () -> Void) { clock.schedule(at: at, on: queue, work) }

    package func assertConfined() { queue.assertConfined() }
}
