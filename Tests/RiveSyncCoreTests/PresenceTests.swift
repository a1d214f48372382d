import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import Testing

/// One target's presence: members, keys, coalescing, rate, grace deadlines (on the test's own
/// clock) and limits.
@Suite struct PresenceTests {
    typealias Presence = TargetPresence<Int>
    static let keyA = "key-a-0123456789abcdef"
    static let keyB = "key-b-0123456789abcdef"
    static let second: UInt64 = 1_000_000_000
    static let interval = second / 60

    static func state(_ name: String, cursor: Double = 0) -> JSONValue {
        .object([("name", .string(name)), ("cursor", .number(cursor))])
    }

    @Test func joinsReachSubscribersOnceWithTheLatestState() throws {
        var presence = Presence()
        let a = try presence.join(1, owner: .token("qa"), key: Self.keyA, state: Self.state("Ana"), now: 0)
        let b = try presence.join(2, owner: .anonymous, key: Self.keyB, state: Self.state("Bo"), now: 0)
        #expect(a == .init(member: MemberID(1), resumed: false) && b.member == MemberID(2))
        for step in 1...50 { try presence.update(1, state: Self.state("Ana", cursor: Double(step)), now: UInt64(step) * 1000) }
        #expect(presence.published.isEmpty, "nothing told yet")
        #expect(presence.messageDue(now: 0, interval: Self.interval) == 0, "the first message goes at once")
        let changes = presence.takeChanges(now: 0)
        #expect(changes == [.join(b.member, state: Self.state("Bo")), .join(a.member, state: Self.state("Ana", cursor: 50))])
        #expect(presence.published.map(\.member) == [a.member, b.member], "join order")
        #expect(presence.messageDue(now: 1, interval: Self.interval) == nil, "nothing new")
    }

    @Test func messagesComeAtMostOncePerIntervalWithTheNetChange() throws {
        var presence = Presence()
        _ = try presence.join(1, owner: .anonymous, key: Self.keyA, state: Self.state("Ana"), now: 0)
        _ = presence.takeChanges(now: 0)
        try presence.update(1, state: Self.state("Ana", cursor: 1), now: 10)
        #expect(presence.messageDue(now: 10, interval: Self.interval) == Self.interval, "waits for the interval's end")
        try presence.update(1, state: Self.state("Ana", cursor: 2), now: 20)
        let late = try presence.join(2, owner: .anonymous, key: Self.keyB, state: Self.state("Bo"), now: 30)
        try presence.leave(2)
        let changes = presence.takeChanges(now: Self.interval)
        #expect(
            changes == [.update(MemberID(1), state: Self.state("Ana", cursor: 2))], "a join and its leave within one interval send nothing")
        #expect(!presence.published.contains { $0.member == late.member })
        try presence.update(1, state: Self.state("Ana", cursor: 9), now: Self.interval + 1)
        try presence.update(1, state: Self.state("Ana", cursor: 2), now: Self.interval + 2)
        #expect(presence.takeChanges(now: 2 * Self.interval) == [], "a state set back to what was told is no change")
        try presence.leave(1)
        #expect(presence.takeChanges(now: 3 * Self.interval) == [.leave(MemberID(1), reason: .left)])
        #expect(presence.published.isEmpty)
        #expect(throws: PresenceError.notJoined) { try presence.leave(1) }
        #expect(throws: PresenceError.notJoined) { try presence.update(1, state: Self.state("x"), now: 0) }
    }

    @Test func aClosedConnectionLeavesAfterTheGracePeriod() throws {
        var presence = Presence(limits: PresenceLimits(graceNanoseconds: 10 * Self.second))
        _ = try presence.join(1, owner: .anonymous, key: Self.keyA, state: Self.state("Ana"), now: 0)
        _ = presence.takeChanges(now: 0)
        #expect(presence.disconnected(1, now: Self.second) == 11 * Self.second)
        #expect(presence.disconnected(1, now: Self.second) == nil, "no longer its connection")
        #expect(presence.expire(now: 10 * Self.second) == 11 * Self.second, "still in its grace period")
        #expect(presence.current.count == 1 && presence.messageDue(now: 0, interval: 1) == nil, "and unchanged")
        #expect(presence.expire(now: 11 * Self.second) == nil)
        #expect(presence.takeChanges(now: 11 * Self.second) == [.leave(MemberID(1), reason: .disconnected)])
    }

    @Test func theSameKeyAndOwnerResumeWithinTheGracePeriod() throws {
        var presence = Presence()
        let first = try presence.join(1, owner: .token("qa"), key: Self.keyA, state: Self.state("Ana"), now: 0)
        _ = presence.takeChanges(now: 0)
        presence.disconnected(1, now: Self.second)
        let other = try presence.join(2, owner: .token("intruder"), key: Self.keyA, state: Self.state("Eve"), now: 2 * Self.second)
        #expect(other.member != first.member && !other.resumed, "a key is scoped by its owner")
        let resumed = try presence.join(3, owner: .token("qa"), key: Self.keyA, state: Self.state("Ana"), now: 2 * Self.second)
        #expect(resumed == .init(member: first.member, resumed: true))
        #expect(presence.expire(now: 100 * Self.second) == nil, "a resumed member has no deadline")
        #expect(presence.takeChanges(now: 100 * Self.second) == [.join(other.member, state: Self.state("Eve"))], "no leave, no join")
        #expect(presence.member(of: 3) == first.member && presence.member(of: 1) == nil)
    }

    @Test func aKeyOfALiveMemberMovesItToTheNewConnection() throws {
        var presence = Presence()
        let first = try presence.join(1, owner: .anonymous, key: Self.keyA, state: Self.state("Ana"), now: 0)
        _ = presence.takeChanges(now: 0)
        let moved = try presence.join(2, owner: .anonymous, key: Self.keyA, state: Self.state("Ana", cursor: 4), now: 5)
        #expect(moved == .init(member: first.member, resumed: true))
        #expect(presence.member(of: 1) == nil && presence.member(of: 2) == first.member)
        #expect(presence.disconnected(1, now: 6) == nil, "the old connection closing changes nothing")
        #expect(presence.takeChanges(now: Self.second) == [.update(first.member, state: Self.state("Ana", cursor: 4))])
    }

    @Test func joiningAgainUpdatesOrReplacesTheMember() throws {
        var presence = Presence()
        let first = try presence.join(1, owner: .anonymous, key: Self.keyA, state: Self.state("Ana"), now: 0)
        #expect(
            try presence.join(1, owner: .anonymous, key: Self.keyA, state: Self.state("Ana2"), now: 1)
                == .init(member: first.member, resumed: false))
        _ = presence.takeChanges(now: 0)
        let second = try presence.join(1, owner: .anonymous, key: Self.keyB, state: Self.state("Bo"), now: 2)
        #expect(second.member != first.member)
        #expect(
            presence.takeChanges(now: Self.second) == [.leave(first.member, reason: .left), .join(second.member, state: Self.state("Bo"))])
    }

    @Test func limitsRefuseAndChangeNothing() throws {
        var presence = Presence(limits: PresenceLimits(maxMembers: 2, maxStateBytes: 40, maxUpdatesPerSecond: 3))
        _ = try presence.join(1, owner: .anonymous, key: Self.keyA, state: Self.state("Ana"), now: 0)
        _ = try presence.join(2, owner: .anonymous, key: Self.keyB, state: Self.state("Bo"), now: 0)
        #expect(throws: PresenceError.limitExceeded(limit: "maxPresenceMembers", value: 2)) {
            try presence.join(3, owner: .anonymous, key: "key-c-0123456789abcdef", state: Self.state("Cy"), now: 0)
        }
        presence.disconnected(2, now: 0)
        #expect(throws: PresenceError.limitExceeded(limit: "maxPresenceMembers", value: 2), "a member in its grace period counts") {
            try presence.join(3, owner: .anonymous, key: "key-c-0123456789abcdef", state: Self.state("Cy"), now: 0)
        }
        let big = JSONValue.object([("name", .string(String(repeating: "x", count: 40)))])
        #expect(throws: PresenceError.limitExceeded(limit: "maxPresenceStateBytes", value: 40)) {
            try presence.update(1, state: big, now: 0)
        }
        #expect(throws: PresenceError.invalidState) { try presence.update(1, state: .array([]), now: 0) }
        #expect(throws: PresenceError.invalidKey) { try presence.join(4, owner: .anonymous, key: "short", state: Self.state("x"), now: 0) }
        for step in 0..<3 { try presence.update(1, state: Self.state("Ana", cursor: Double(step)), now: 1) }
        #expect(throws: PresenceError.rateLimited(limit: "maxPresenceUpdatesPerSecond")) {
            try presence.update(1, state: Self.state("Ana", cursor: 99), now: 2)
        }
        #expect(presence.current.first?.state == Self.state("Ana", cursor: 2), "the refused update changed nothing")
        try presence.update(1, state: Self.state("Ana", cursor: 5), now: 1 + Self.second / 3 + 1)
    }
}
