import RiveSyncJSON
import RiveSyncModel

/// The presence of one target (PROTOCOL.md §15): who is there with what state, with the keys
/// that let a member resume on a new connection, grace deadlines for members whose connection
/// closed, a rate bucket per member, and what subscribers have been told so far.
///
/// A value with no clock and no I/O: every call that depends on time takes `now` (monotonic
/// nanoseconds) from the caller, which also schedules the returned deadlines. Subscribers are
/// told changes by `takeChanges`, at most once per interval, as the net change since the last
/// time; `published` is what they have been told, the list a new subscriber's snapshot carries.
public struct TargetPresence<Connection: Hashable & Sendable>: Sendable {
    public var limits: PresenceLimits
    /// Current members by name.
    private var members: [MemberID: Member] = [:]
    /// Current member names in join order.
    private var order: [MemberID] = []
    private var byConnection: [Connection: MemberID] = [:]
    private var byKey: [KeyOwner: MemberID] = [:]
    /// What subscribers were told, in join order.
    public private(set) var published: [PresenceEntry] = []
    /// Why members that left since the last message left.
    private var departed: [MemberID: LeaveReason] = [:]
    /// Each member's last change, by a running count, to order a message's changes.
    private var changed: [MemberID: UInt64] = [:]
    private var changes: UInt64 = 0
    private var nextMember: UInt64 = 1
    /// When changes were last taken (nil: never).
    private var lastMessage: UInt64?

    private struct Member: Sendable {
        var key: KeyOwner
        var state: JSONValue
        /// nil while its connection is closed and the grace period runs.
        var connection: Connection?
        var graceDeadline: UInt64?
        var bucket: Double
        var bucketTime: UInt64
    }

    private struct KeyOwner: Hashable, Sendable {
        var owner: PresenceOwner
        var key: String
    }

    /// The outcome of a join.
    public struct Joined: Sendable, Hashable {
        public var member: MemberID
        /// The key named a member that was already there (in its grace period, or on another
        /// connection); it is now this connection's.
        public var resumed: Bool

        public init(member: MemberID, resumed: Bool) {
            self.member = member
            self.resumed = resumed
        }
    }

    public init(limits: PresenceLimits = PresenceLimits()) {
        self.limits = limits
    }

    /// The current members in join order (what the next message will make `published`).
    public var current: [PresenceEntry] { order.map { PresenceEntry(member: $0, state: members[$0]!.state) } }

    /// The member a connection is, if any.
    public func member(of connection: Connection) -> MemberID? { byConnection[connection] }

    /// Joins `connection` with `key` and `state`. The same key of the same owner resumes (or
    /// takes over) its member; a connection that is already a member updates its state.
    public mutating func join(
        _ connection: Connection, owner: PresenceOwner, key: String, state: JSONValue, now: UInt64
    ) throws(PresenceError) -> Joined {
        guard PresenceLimits.keyBytes.contains(key.utf8.count) else { throw .invalidKey }
        try check(state)
        let keyOwner = KeyOwner(owner: owner, key: key)
        if let id = byConnection[connection], members[id]!.key == keyOwner {
            try update(connection, state: state, now: now)
            return Joined(member: id, resumed: false)
        }
        if let id = byKey[keyOwner] {
            if let old = members[id]!.connection { byConnection[old] = nil }
            if let previous = byConnection[connection] { remove(previous, reason: .left) }
            members[id]!.connection = connection
            members[id]!.graceDeadline = nil
            byConnection[connection] = id
            set(state, of: id)
            return Joined(member: id, resumed: true)
        }
        guard members.count < limits.maxMembers || byConnection[connection] != nil else {
            throw .limitExceeded(limit: "maxPresenceMembers", value: limits.maxMembers)
        }
        if let previous = byConnection[connection] { remove(previous, reason: .left) }
        let id = MemberID(nextMember)
        nextMember += 1
        members[id] = Member(
            key: keyOwner, state: state, connection: connection, graceDeadline: nil, bucket: Double(limits.maxUpdatesPerSecond),
            bucketTime: now)
        order.append(id)
        byConnection[connection] = id
        byKey[keyOwner] = id
        touch(id)
        return Joined(member: id, resumed: false)
    }

    /// Replaces the connection's member state.
    public mutating func update(_ connection: Connection, state: JSONValue, now: UInt64) throws(PresenceError) {
        guard let id = byConnection[connection] else { throw .notJoined }
        try check(state)
        var member = members[id]!
        let rate = Double(limits.maxUpdatesPerSecond)
        member.bucket = min(rate, member.bucket + Double(now &- member.bucketTime) * rate / 1e9)
        member.bucketTime = now
        guard member.bucket >= 1 else { throw .rateLimited(limit: "maxPresenceUpdatesPerSecond") }
        member.bucket -= 1
        members[id] = member
        set(state, of: id)
    }

    /// The connection's member leaves.
    public mutating func leave(_ connection: Connection) throws(PresenceError) {
        guard let id = byConnection[connection] else { throw .notJoined }
        remove(id, reason: .left)
    }

    /// The connection closed: its member stays until `now` + the grace period unless a join
    /// with its key resumes it. Returns that deadline (nil when the connection was no member).
    @discardableResult
    public mutating func disconnected(_ connection: Connection, now: UInt64) -> UInt64? {
        guard let id = byConnection.removeValue(forKey: connection) else { return nil }
        let deadline = now &+ limits.graceNanoseconds
        members[id]!.connection = nil
        members[id]!.graceDeadline = deadline
        return deadline
    }

    /// Members whose grace period ended by `now` leave (reason `disconnected`). Returns the
    /// next grace deadline still running, if any.
    public mutating func expire(now: UInt64) -> UInt64? {
        for id in order where members[id]!.graceDeadline.map({ $0 <= now }) == true { remove(id, reason: .disconnected) }
        return members.values.compactMap(\.graceDeadline).min()
    }

    /// When the next presence message may be sent: nil when there is nothing to tell, else
    /// `now` if the last one is at least `interval` old (or there was none), else the end of
    /// its interval. (A burst of updates gives one message per interval, with the latest
    /// states.)
    public func messageDue(now: UInt64, interval: UInt64) -> UInt64? {
        guard !departed.isEmpty || !changed.isEmpty else { return nil }
        guard let last = lastMessage else { return now }
        return max(now, last &+ interval)
    }

    /// The net change per member since the last message, in the order of each member's last
    /// change; `published` becomes `current`. Empty when nothing changed in effect (a join
    /// then its leave, a state set back to what was published).
    public mutating func takeChanges(now: UInt64) -> [PresenceChange] {
        let before = Dictionary(uniqueKeysWithValues: published.map { ($0.member, $0.state) })
        var result: [(UInt64, PresenceChange)] = []
        for (id, count) in changed {
            if let reason = departed[id] {
                if before[id] != nil { result.append((count, .leave(id, reason: reason))) }
            } else if let state = members[id]?.state {
                if let old = before[id] {
                    if old != state { result.append((count, .update(id, state: state))) }
                } else {
                    result.append((count, .join(id, state: state)))
                }
            }
        }
        published = current
        departed = [:]
        changed = [:]
        lastMessage = now
        return result.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private func check(_ state: JSONValue) throws(PresenceError) {
        guard state.objectValue != nil else { throw .invalidState }
        guard state.jsonText.utf8.count <= limits.maxStateBytes else {
            throw .limitExceeded(limit: "maxPresenceStateBytes", value: limits.maxStateBytes)
        }
    }

    private mutating func set(_ state: JSONValue, of id: MemberID) {
        members[id]!.state = state
        touch(id)
    }

    private mutating func remove(_ id: MemberID, reason: LeaveReason) {
        guard let member = members.removeValue(forKey: id) else { return }
        order.removeAll { $0 == id }
        if let connection = member.connection { byConnection[connection] = nil }
        byKey[member.key] = nil
        departed[id] = reason
        touch(id)
    }

    private mutating func touch(_ id: MemberID) {
        changes += 1
        changed[id] = changes
    }
}
