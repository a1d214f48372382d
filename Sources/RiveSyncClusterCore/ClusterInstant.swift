/// A reading of the node's monotonic clock, in nanoseconds. The shell reads the clock and
/// passes the reading in events; the core never reads one.
public struct ClusterInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// `duration` later (saturating).
    public func adding(_ duration: Duration) -> ClusterInstant {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(Self.nanoseconds(duration))
        return ClusterInstant(nanoseconds: overflow ? .max : sum)
    }

    /// How long after `earlier` this is (zero when it is not after).
    public func since(_ earlier: ClusterInstant) -> Duration {
        nanoseconds > earlier.nanoseconds ? .nanoseconds(Int64(clamping: nanoseconds - earlier.nanoseconds)) : .zero
    }

    public static func < (lhs: ClusterInstant, rhs: ClusterInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public var description: String { "\(nanoseconds)ns" }

    /// `duration` in whole nanoseconds (negative durations count as zero).
    public static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
