import Synchronization

/// The transport counters one service thread adds to on every message, kept apart from every
/// other thread's: two service threads never write one cache line per message.
/// `TransportMetrics` sums the stripes when read.
final class TransportStripe: Sendable {
    /// Keeps this stripe's counters off the cache line of whatever lies before it.
    private let leading: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    let messagesIn = Atomic<Int>(0)
    let bytesIn = Atomic<Int>(0)
    let messagesOut = Atomic<Int>(0)
    let bytesOut = Atomic<Int>(0)
    let writes = Atomic<Int>(0)
    let directWrites = Atomic<Int>(0)
    let fedWrites = Atomic<Int>(0)
    let queuedBytes = Atomic<Int>(0)
    let queuedMessages = Atomic<Int>(0)
    /// Bytes of sends submitted through an inbox and not applied yet: added to the submitting
    /// service thread's stripe (the first one's when no service thread submits), taken away
    /// from the stripe of the thread that applies them. A stripe alone may go below 0, the sum
    /// not.
    let bytesInTransit = Atomic<Int>(0)
    /// Keeps the next allocation's fields off this stripe's last cache line.
    private let trailing: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}
