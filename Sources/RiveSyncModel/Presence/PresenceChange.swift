import RiveSyncJSON

/// A member's name in a target's presence (`p-1`, `p-2`, …), never reused in the target.
public struct MemberID: Sendable, Hashable, CustomStringConvertible {
    public let number: UInt64

    public init(_ number: UInt64) { self.number = number }

    public var description: String { "p-\(number)" }
}

/// Who joined: a token (by its name) or an anonymous connection. A key resumes a member only
/// for the same owner.
public enum PresenceOwner: Sendable, Hashable {
    case anonymous
    case token(String)
}

/// Why a member left.
public enum LeaveReason: String, Sendable, Hashable, CaseIterable {
    /// It sent `presenceLeave`.
    case left
    /// Its connection closed and no resume came within the grace period.
    case disconnected
}

/// One net change of a member since the last presence message.
public enum PresenceChange: Sendable, Hashable {
    case join(MemberID, state: JSONValue)
    case update(MemberID, state: JSONValue)
    case leave(MemberID, reason: LeaveReason)
}

/// A member as subscribers see it: its name and state.
public struct PresenceEntry: Sendable, Hashable {
    public var member: MemberID
    public var state: JSONValue

    public init(member: MemberID, state: JSONValue) {
        self.member = member
        self.state = state
    }
}
