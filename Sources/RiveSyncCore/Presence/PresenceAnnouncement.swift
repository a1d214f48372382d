import RiveSyncJSON
import RiveSyncModel

/// What a cluster node tells the other nodes about presence (protocol/CLUSTER.md §2.9),
/// outside the cluster's log. Encoded and decoded only by `PresenceAnnouncementCodec`.
public enum PresenceAnnouncement: Sendable, Hashable {
    /// The node's members of `target`, in full, and those that left since its last
    /// announcement of it.
    case members(target: String, members: [SharedMember], left: [DepartedMember])
    /// The node is there (sent every third of the lease).
    case alive
    /// The node asks every node to announce its members of every target.
    case hello
}

/// A node's own member as the other nodes learn it.
public struct SharedMember: Sendable, Hashable {
    public var member: MemberID
    public var state: JSONValue
    /// Hex SHA-256 of the member's identity and key: a join with the same identity and key on
    /// another node resumes it. (Never the key itself.)
    public var keyDigest: String
    /// What is left of its grace period, while its connection is closed (milliseconds).
    public var graceMilliseconds: UInt64?

    public init(member: MemberID, state: JSONValue, keyDigest: String, graceMilliseconds: UInt64?) {
        self.member = member
        self.state = state
        self.keyDigest = keyDigest
        self.graceMilliseconds = graceMilliseconds
    }
}

/// A member that left, and why.
public struct DepartedMember: Sendable, Hashable {
    public var member: MemberID
    public var reason: LeaveReason

    public init(member: MemberID, reason: LeaveReason) {
        self.member = member
        self.reason = reason
    }
}

/// What a cluster node needs to share its presence: its command-number slot (member names are
/// numbered by it, so they are unique in the cluster) and its lease (a node silent that long is
/// given up).
public struct PresenceSharing: Sendable, Hashable {
    public var slot: UInt64
    public var slots: UInt64
    public var leaseNanoseconds: UInt64

    public init(slot: UInt64, slots: UInt64, leaseNanoseconds: UInt64) {
        self.slot = slot
        self.slots = slots
        self.leaseNanoseconds = leaseNanoseconds
    }
}
