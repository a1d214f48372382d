/// One entry of the cluster's log as the core decides on it: who appended it, with which
/// fencing token, for which proposal. What it carries (a record, a file, an asset) is the
/// shell's to apply.
public struct LogEntry: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A change-log record (counted for compaction, protocol/CLUSTER.md §2.7).
        case record
        /// A `file` or `asset` entry: answered like a record, not counted.
        case other
        /// A node's `join` after taking a new token (§2.4): not a proposal.
        case join
    }

    public var position: LogPosition
    public var kind: Kind
    /// The node that appended it.
    public var node: String
    /// The fencing token it was appended with.
    public var token: String
    /// The proposal it answers on its node (0 for a join).
    public var ticket: UInt64
    /// Voided after `WAIT` timed out for it (§3.6): no node applies it.
    public var voided: Bool

    public init(position: LogPosition, kind: Kind, node: String, token: String, ticket: UInt64, voided: Bool = false) {
        self.position = position
        self.kind = kind
        self.node = node
        self.token = token
        self.ticket = ticket
        self.voided = voided
    }
}
