/// Open-loop pacing of `writers` writers that send `rate` updates per second in total,
/// round-robin: send number i overall is writer `i % writers`'s send number `i / writers`, due
/// at `start + i / rate` (nanoseconds). A send that is late goes out at once, none is skipped,
/// so a slow receiver cannot slow the offered load down. Sends due at or after `end` are not made.
public struct RoundRobinPacer: Sendable {
    public let writers: Int
    public let start: UInt64
    public let end: UInt64
    /// Nanoseconds between two sends (over all writers).
    private let interval: Double
    /// Sends taken so far.
    public private(set) var sent = 0

    /// A pacer for `writers` (at least one) at `rate` updates/s in total (more than zero).
    public init(writers: Int, rate: Double, start: UInt64, end: UInt64) {
        precondition(writers > 0 && rate > 0, "RoundRobinPacer needs writers and a rate")
        self.writers = writers
        self.start = start
        self.end = end
        interval = 1e9 / rate
    }

    /// When the next send is due; nil once the next one would be at or after `end`.
    public var nextDue: UInt64? {
        let due = start + UInt64(Double(sent) * interval)
        return due < end ? due : nil
    }

    /// Takes the next send: which writer makes it and that writer's sequence number.
    public mutating func take() -> (writer: Int, seq: Int) {
        defer { sent += 1 }
        return (sent % writers, sent / writers)
    }
}
