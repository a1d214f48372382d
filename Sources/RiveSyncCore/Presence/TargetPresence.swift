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
///
/// On a cluster node it also holds the other nodes' members of the target (protocol/CLUSTER.md
/// §2.9): `applyRemote` merges a node's announcement, `nodeLost` starts the grace periods of a
/// silent node's members, a join whose key digest names a remote member takes it over, and
/// `takeAnnouncement` says what the other nodes should learn of this node's members.
public struct TargetPresence<Connection: Hashable & Sendable>: Sendable {
    public var limits: PresenceLimits
    /// How member names are numbered: `n × stride + offset` for n = 1, 2, … (a cluster node:
    /// its slot among `stride`, so names are unique across nodes).
    public var numbering: (stride: UInt64, offset: UInt64) = (1, 0)
    /// This node's current members by name.
    private var members: [MemberID: Member] = [:]
    /// Other nodes' current members by name.
    private var remote: [MemberID: RemoteMember] = [:]
    private var remoteByDigest: [String: MemberID] = [:]
    /// This node's members that another node announced as its own while their connection here
    /// was still open (a frozen node's, resumed elsewhere): they go to it when that closes.
    private var claimed: [MemberID: RemoteMember] = [:]
    /// This node's members that left since the last announcement.
    private var announcedLeft: [MemberID: LeaveReason] = [:]
    /// This node's members changed since the last announcement.
    private var localChanged = false
    /// Current member names (of every node) in join order.
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
        var keyDigest: String
        var state: JSONValue
        /// nil while its connection is closed and the grace period runs.
        var connection: Connection?
        var graceDeadline: UInt64?
        var bucket: Double
        var bucketTime: UInt64
    }

    private struct RemoteMember: Sendable {
        var node: String
        var state: JSONValue
        var keyDigest: String
        /// Its grace period's end as its node announced it (its connection is closed there).
        var graceDeadline: UInt64?
        /// Its node was given up: it leaves then unless a join takes it over.
        var orphanDeadline: UInt64?
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
    public var current: [PresenceEntry] { order.map { PresenceEntry(member: $0, state: members[$0]?.state ?? remote[$0]!.state) } }

    /// The member a connection is, if any.
    public func member(of connection: Connection) -> MemberID? { byConnection[connection] }

    /// Joins `connection` with `key` and `state`. The same key of the same owner resumes (or
    /// takes over) its member; a connection that is already a member updates its state.
    /// `keyDigest` (a cluster node's digest of the owner and key) takes over another node's
    /// member announced with it.
    public mutating func join(
        _ connection: Connection, owner: PresenceOwner, key: String, keyDigest: String = "", state: JSONValue, now: UInt64
    ) throws(PresenceError) -> Joined {
        guard PresenceLimits.keyBytes.contains(key.utf8.count) else { throw .invalidKey }
        try check(state)
        let keyOwner = KeyOwner(owner: owner, key: key)
        if let id = byConnection[connection], members[id]!.key == keyOwner {
            try update(connection, state: state, now: now)
            return Joined(member: id, resumed: false)
        }
        if let id = byKey[keyOwner] {
            claimed[id] = nil
            if let old = members[id]!.connection { byConnection[old] = nil }
            if let previous = byConnection[connection] { remove(previous, reason: .left) }
            members[id]!.connection = connection
            members[id]!.graceDeadline = nil
            byConnection[connection] = id
            set(state, of: id)
            return Joined(member: id, resumed: true)
        }
        if !keyDigest.isEmpty, let id = remoteByDigest[keyDigest], let taken = remote[id] {
            if let previous = byConnection[connection] { remove(previous, reason: .left) }
            forgetRemote(id)
            members[id] = Member(
                key: keyOwner, keyDigest: keyDigest, state: taken.state, connection: connection, graceDeadline: nil,
                bucket: Double(limits.maxUpdatesPerSecond), bucketTime: now)
            byConnection[connection] = id
            byKey[keyOwner] = id
            set(state, of: id)
            return Joined(member: id, resumed: true)
        }
        guard members.count + remote.count < limits.maxMembers || byConnection[connection] != nil else {
            throw .limitExceeded(limit: "maxPresenceMembers", value: limits.maxMembers)
        }
        if let previous = byConnection[connection] { remove(previous, reason: .left) }
        let id = MemberID(nextMember * numbering.stride + numbering.offset)
        nextMember += 1
        members[id] = Member(
            key: keyOwner, keyDigest: keyDigest, state: state, connection: connection, graceDeadline: nil,
            bucket: Double(limits.maxUpdatesPerSecond),
            bucketTime: now)
        order.append(id)
        byConnection[connection] = id
        byKey[keyOwner] = id
        localChanged = true
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
    /// with its key resumes it. Returns that deadline (nil when the connection was no member,
    /// or when another node announced the member meanwhile: it is that node's now, with no
    /// leave).
    @discardableResult
    public mutating func disconnected(_ connection: Connection, now: UInt64) -> UInt64? {
        guard let id = byConnection.removeValue(forKey: connection) else { return nil }
        if let claim = claimed.removeValue(forKey: id), let member = members.removeValue(forKey: id) {
            byKey[member.key] = nil
            remote[id] = claim
            remoteByDigest[claim.keyDigest] = id
            localChanged = true
            if claim.state != member.state { touch(id) }
            return nil
        }
        let deadline = now &+ limits.graceNanoseconds
        members[id]!.connection = nil
        members[id]!.graceDeadline = deadline
        localChanged = true
        return deadline
    }

    /// Members whose grace period ended by `now` leave (reason `disconnected`), this node's
    /// and a given-up node's. Returns the next grace deadline still running, if any.
    public mutating func expire(now: UInt64) -> UInt64? {
        for id in order {
            if members[id]?.graceDeadline.map({ $0 <= now }) == true { remove(id, reason: .disconnected) }
            if remote[id]?.orphanDeadline.map({ $0 <= now }) == true { removeRemote(id, reason: .disconnected) }
        }
        return (members.values.compactMap(\.graceDeadline) + remote.values.compactMap(\.orphanDeadline)).min()
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
            } else if let state = members[id]?.state ?? remote[id]?.state {
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

    // MARK: Other nodes' members (a cluster node)

    /// Merges `node`'s announcement of its members of this target: listed members join or
    /// change (a member of this node in its grace period that `node` lists was resumed there:
    /// it is dropped here without a leave; one whose connection here is open stays until that
    /// closes, then goes to `node`); `node`'s members not listed any more leave, with the
    /// reason `left` gives (else `disconnected`).
    public mutating func applyRemote(node: String, members list: [SharedMember], left: [DepartedMember], now: UInt64) {
        var listed: Set<MemberID> = []
        for shared in list {
            let id = shared.member
            listed.insert(id)
            if let local = members[id] {
                guard local.connection == nil else {
                    let grace = shared.graceMilliseconds.map { now &+ $0 * 1_000_000 }
                    claimed[id] = RemoteMember(node: node, state: shared.state, keyDigest: shared.keyDigest, graceDeadline: grace)
                    continue
                }
                members[id] = nil
                byKey[local.key] = nil
                localChanged = true
            }
            if let old = remote[id], old.keyDigest != shared.keyDigest { remoteByDigest[old.keyDigest] = nil }
            let grace = shared.graceMilliseconds.map { now &+ $0 * 1_000_000 }
            let known = remote[id] != nil || order.contains(id)
            if !known {
                order.append(id)
                departed[id] = nil
            }
            if remote[id]?.state != shared.state || !known { touch(id) }
            remote[id] = RemoteMember(node: node, state: shared.state, keyDigest: shared.keyDigest, graceDeadline: grace)
            remoteByDigest[shared.keyDigest] = id
        }
        claimed = claimed.filter { $0.value.node != node || listed.contains($0.key) }
        let reasons = Dictionary(left.map { ($0.member, $0.reason) }, uniquingKeysWith: { first, _ in first })
        for id in order where remote[id]?.node == node && !listed.contains(id) {
            removeRemote(id, reason: reasons[id] ?? .disconnected)
        }
    }

    /// `node` was given up (silent for its lease): each of its members leaves after the grace
    /// period (or what was left of one already running) unless a join takes it over. Returns
    /// the earliest of those deadlines (nil: it had no members here).
    public mutating func nodeLost(_ node: String, now: UInt64) -> UInt64? {
        claimed = claimed.filter { $0.value.node != node }
        var earliest: UInt64?
        for id in order {
            guard var member = remote[id], member.node == node, member.orphanDeadline == nil else { continue }
            let full = now &+ limits.graceNanoseconds
            let deadline = member.graceDeadline.map { min($0, full) } ?? full
            member.orphanDeadline = deadline
            remote[id] = member
            earliest = min(earliest ?? deadline, deadline)
        }
        return earliest
    }

    /// What the other nodes should learn of this node's members since the last announcement
    /// (nil: nothing changed): all of them, and those that left meanwhile.
    public mutating func takeAnnouncement(now: UInt64) -> (members: [SharedMember], left: [DepartedMember])? {
        guard localChanged else { return nil }
        let left = announcedLeft.sorted { $0.key.number < $1.key.number }.map { DepartedMember(member: $0.key, reason: $0.value) }
        localChanged = false
        announcedLeft = [:]
        return (shared(now: now), left)
    }

    /// This node's members as the other nodes should know them, in join order.
    public func shared(now: UInt64) -> [SharedMember] {
        order.compactMap { id in
            guard let member = members[id] else { return nil }
            return SharedMember(
                member: id, state: member.state, keyDigest: member.keyDigest,
                graceMilliseconds: member.graceDeadline.map { $0 > now ? ($0 - now) / 1_000_000 : 0 })
        }
    }

    private mutating func forgetRemote(_ id: MemberID) {
        guard let member = remote.removeValue(forKey: id) else { return }
        if remoteByDigest[member.keyDigest] == id { remoteByDigest[member.keyDigest] = nil }
    }

    private mutating func removeRemote(_ id: MemberID, reason: LeaveReason) {
        guard remote[id] != nil else { return }
        forgetRemote(id)
        order.removeAll { $0 == id }
        departed[id] = reason
        touch(id)
    }

    private func check(_ state: JSONValue) throws(PresenceError) {
        guard state.objectValue != nil else { throw .invalidState }
        guard state.jsonText.utf8.count <= limits.maxStateBytes else {
            throw .limitExceeded(limit: "maxPresenceStateBytes", value: limits.maxStateBytes)
        }
    }

    private mutating func set(_ state: JSONValue, of id: MemberID) {
        members[id]!.state = state
        localChanged = true
        touch(id)
    }

    private mutating func remove(_ id: MemberID, reason: LeaveReason) {
        guard let member = members.removeValue(forKey: id) else { return }
        claimed[id] = nil
        order.removeAll { $0 == id }
        if let connection = member.connection { byConnection[connection] = nil }
        byKey[member.key] = nil
        departed[id] = reason
        announcedLeft[id] = reason
        localChanged = true
        touch(id)
    }

    private mutating func touch(_ id: MemberID) {
        changes += 1
        changed[id] = changes
    }
}
