import Dispatch
import Foundation

@testable import RiveSyncServer

/// A `DaemonClock` a test moves: time stands still until `fireNext()` jumps it to the
/// earliest timer, which then runs on its queue (timers already due run at once).
final class ManualClock: DaemonClock, @unchecked Sendable {
    private struct Timer {
        var at: UInt64
        var order: Int
        var queue: DispatchQueue
        var work: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var nanoseconds: UInt64 = 1_000_000_000
    private var timers: [Timer] = []
    private var scheduled = 0

    func now() -> UInt64 { lock.withLock { nanoseconds } }

    func schedule(at: UInt64, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        let due: Bool = lock.withLock {
            guard at > nanoseconds else { return true }
            scheduled += 1
            timers.append(Timer(at: at, order: scheduled, queue: queue, work: work))
            return false
        }
        if due { queue.async(execute: work) }
    }

    /// Moves the clock to the earliest timer and runs it (with every other timer due then, in
    /// the order they were set); false when no timer is set.
    @discardableResult
    func fireNext() -> Bool {
        let due: [Timer] = lock.withLock {
            guard let at = timers.map(\.at).min() else { return [] }
            nanoseconds = max(nanoseconds, at)
            let due = timers.filter { $0.at <= at }.sorted { $0.order < $1.order }
            timers.removeAll { $0.at <= at }
            return due
        }
        for timer in due { timer.queue.async(execute: timer.work) }
        return !due.isEmpty
    }

    /// Moves the clock forward by `seconds`, running every timer that falls due on the way.
    func advance(seconds: Double) {
        let target = now() + UInt64(seconds * 1e9)
        while let next = lock.withLock({ timers.map(\.at).min() }), next <= target { fireNext() }
        lock.withLock { nanoseconds = max(nanoseconds, target) }
    }
}
