/// Where an entry is in the cluster's log: a Redis stream id (`<milliseconds>-<sequence>`),
/// ordered as Redis orders them.
public struct LogPosition: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var milliseconds: UInt64
    public var sequence: UInt64

    public init(_ milliseconds: UInt64, _ sequence: UInt64) {
        self.milliseconds = milliseconds
        self.sequence = sequence
    }

    /// Before every entry (`0-0`).
    public static let start = LogPosition(0, 0)

    public static func < (lhs: LogPosition, rhs: LogPosition) -> Bool {
        (lhs.milliseconds, lhs.sequence) < (rhs.milliseconds, rhs.sequence)
    }

    public var description: String { "\(milliseconds)-\(sequence)" }
}
