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
    /// Bytes of sends submitted through this thread's inbox and not applied yet. Added by the
    /// submitting thread, taken away by this one: a stripe alone may go below 0, the sum not.
    let bytesInTransit = Atomic<Int>(0)
    /// Keeps the next allocation's fields off this stripe's last cache line.
    private let trailing: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}
