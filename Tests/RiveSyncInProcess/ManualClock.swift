import Dispatch
import Foundation
import RiveSyncServer

/// A `DaemonClock` a test moves: time stands still until `fireNext()` jumps it to the
/// earliest timer, which then runs on its queue (timers already due run at once).
/// `@unchecked Sendable`: every `var` is read and written only while `lock` is held.
package final class ManualClock: DaemonClock, @unchecked Sendable {
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

    package init() {}

    package func now() -> UInt64 { lock.withLock { nanoseconds } }

    package func schedule(at: UInt64, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
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
    package func fireNext() -> Bool {
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
    package func advance(seconds: Double) {
        let target = now() + UInt64(seconds * 1e9)
        while let next = lock.withLock({ timers.map(\.at).min() }), next <= target { fireNext() }
        lock.withLock { nanoseconds = max(nanoseconds, target) }
    }

    /// Moves the clock as the wall clock goes (in steps of `step` seconds) until the returned
    /// task is cancelled: for a daemon whose clients expect time to pass by itself. The timers
    /// left when it stops never run.
    package func followingWallTime(step: Double = 0.001) -> Task<Void, Never> {
        Task.detached { [self] in
            var last = DispatchTime.now().uptimeNanoseconds
            while true {
                do { try await Task.sleep(nanoseconds: UInt64(step * 1e9)) } catch { return }  // cancelled: stop
                let now = DispatchTime.now().uptimeNanoseconds
                advance(seconds: Double(now - last) / 1e9)
                last = now
            }
        }
    }
}
