import Foundation
import Synchronization

/// A watch on Swift's cooperative pool for the test process: a task that sleeps 100 ms at a
/// time and records how much later than asked it woke up. A test that blocks pool threads
/// (a process wait, a blocking read) makes every other test late by as much; the largest
/// delay is printed to standard error when the process exits. A figure, never an assertion.
public enum PoolStarvation {
    private static let largest = Mutex<(delay: Duration, ticks: Int)>((.zero, 0))

    private static let started: Void = {
        Task.detached {
            let clock = ContinuousClock()
            while true {
                let asked = clock.now
                try? await Task.sleep(for: .milliseconds(100))  // never cancelled: runs until exit
                let delay = clock.now - asked - .milliseconds(100)
                largest.withLock { $0 = (max($0.delay, delay), $0.ticks + 1) }
            }
        }
        atexit {
            let (delay, ticks) = PoolStarvation.largest.withLock { $0 }
            let milliseconds = Double(delay.components.seconds) * 1000 + Double(delay.components.attoseconds) / 1e15
            FileHandle.standardError.write(
                Data("cooperative pool: largest wake-up delay of a 100 ms tick \(Int(milliseconds)) ms (\(ticks) ticks)\n".utf8))
        }
    }()

    /// Starts the watch (once per process; later calls do nothing).
    public static func watch() { started }
}
