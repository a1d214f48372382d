import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import Testing

/// Presence merged across cluster nodes (protocol/CLUSTER.md §2.9), on the test's own clock:
/// two `TargetPresence` values stand for one target on nodes A and B, and announcements go
/// from one to the other through the codec, as the relay carries them.
@Suite struct ClusterPresenceTests {
    typealias Presence = TargetPresence<Int>
    static let key = "key-a-0123456789abcdef"
    static let digest = "d1gest-of-qa-and-key-a"
    static let second: UInt64 = 1_000_000_000

    static func state(_ name: String, cursor: Double = 0) -> JSONValue {
        .object([("name", .string(name)), ("cursor", .number(cursor))])
    }

    static func node(slot: UInt64) -> Presence {
        var presence = Presence(limits: PresenceLimits(graceNanoseconds: 10 * second))
        presence.numbering = (4096, slot)
        return presence
    }

    /// Carries `from`'s announcement (if any) to `to` through the codec, as node `name`'s.
    static func relay(_ from: inout Presence, to: inout Presence, as name: String, now: UInt64) throws {
        guard let (members, left) = from.takeAnnouncement(now: now) else { return }
        let bytes = PresenceAnnouncementCodec.encode(.members(target: "room", members: members, left: left))
        guard case .members(_, let decoded, let decodedLeft) = try PresenceAnnouncementCodec.decode(bytes) else {
            Issue.record("not a members announcement")
            return
        }
        to.applyRemote(node: name, members: decoded, left: decodedLeft, now: now)
    }

    @Test func aMemberOfOneNodeIsSeenOnTheOtherAndItsLeaveToo() throws {
        var a = Self.node(slot: 1)
        var b = Self.node(slot: 2)
        let ana = try a.join(7, owner: .token("qa"), key: Self.key, keyDigest: Self.digest, state: Self.state("Ana"), now: 0)
        #expect(ana.member == MemberID(4096 + 1), "numbered by the node's slot")
        let bo = try b.join(8, owner: .anonymous, key: Self.key + "-b", keyDigest: "other", state: Self.state("Bo"), now: 0)
        #expect(bo.member == MemberID(4096 + 2), "no collision with node A's names")
        try Self.relay(&a, to: &b, as: "A", now: 1)
        #expect(b.current.map(\.member) == [bo.member, ana.member], "the union, in the order learned")
        #expect(b.takeChanges(now: 1) == [.join(bo.member, state: Self.state("Bo")), .join(ana.member, state: Self.state("Ana"))])
        try a.update(7, state: Self.state("Ana", cursor: 5), now: 2)
        try Self.relay(&a, to: &b, as: "A", now: 2)
        #expect(b.takeChanges(now: 2) == [.update(ana.member, state: Self.state("Ana", cursor: 5))])
        try Self.relay(&a, to: &b, as: "A", now: 3)
        #expect(b.messageDue(now: 3, interval: 1) == nil, "nothing announced when nothing changed")
        try a.leave(7)
        try Self.relay(&a, to: &b, as: "A", now: 4)
        #expect(b.takeChanges(now: 4) == [.leave(ana.member, reason: .left)], "the leave keeps its reason")
        #expect(b.current.map(\.member) == [bo.member])
    }

    @Test func aJoinWithTheKeyOnAnotherNodeResumesTheMember() throws {
        var a = Self.node(slot: 1)
        var b = Self.node(slot: 2)
        let ana = try a.join(7, owner: .token("qa"), key: Self.key, keyDigest: Self.digest, state: Self.state("Ana"), now: 0)
        try Self.relay(&a, to: &b, as: "A", now: 0)
        _ = b.takeChanges(now: 0)
        a.disconnected(7, now: Self.second)
        try Self.relay(&a, to: &b, as: "A", now: Self.second)
        let resumed = try b.join(
            9, owner: .token("qa"), key: Self.key, keyDigest: Self.digest, state: Self.state("Ana", cursor: 1), now: 2 * Self.second)
        #expect(resumed == .init(member: ana.member, resumed: true))
        #expect(b.takeChanges(now: 2 * Self.second) == [.update(ana.member, state: Self.state("Ana", cursor: 1))], "no leave, no join")
        // Node A learns that B has it: it drops its own without a leave.
        _ = a.takeChanges(now: 2 * Self.second)
        try Self.relay(&b, to: &a, as: "B", now: 2 * Self.second)
        #expect(a.expire(now: 20 * Self.second) == nil, "A's grace deadline is gone with its member")
        #expect(a.takeChanges(now: 20 * Self.second) == [.update(ana.member, state: Self.state("Ana", cursor: 1))])
        #expect(a.current.map(\.member) == [ana.member])
        // A's announcement omits it now; B keeps it (it is B's).
        try Self.relay(&a, to: &b, as: "A", now: 21 * Self.second)
        #expect(b.current.map(\.member) == [ana.member])
    }

    @Test func aSilentNodesMembersLeaveAfterTheGracePeriodUnlessResumed() throws {
        var a = Self.node(slot: 1)
        var b = Self.node(slot: 2)
        let ana = try a.join(7, owner: .token("qa"), key: Self.key, keyDigest: Self.digest, state: Self.state("Ana"), now: 0)
        let cy = try a.join(8, owner: .anonymous, key: Self.key + "-c", keyDigest: "cy", state: Self.state("Cy"), now: 0)
        try Self.relay(&a, to: &b, as: "A", now: 0)
        _ = b.takeChanges(now: 0)
        var peers = PresencePeers()
        let first = peers.heard("A", now: 0)
        let second = peers.heard("A", now: Self.second)
        #expect(first && !second, "a new node is asked to announce, once")
        let silent = [5, 6, 7].map { peers.silent(now: $0 * Self.second, timeout: 5 * Self.second) }
        #expect(silent == [[], ["A"], []], "given up once, a lease after it was last heard")
        #expect(b.nodeLost("A", now: 6 * Self.second) == 16 * Self.second)
        _ = try b.join(9, owner: .token("qa"), key: Self.key, keyDigest: Self.digest, state: Self.state("Ana"), now: 8 * Self.second)
        #expect(b.expire(now: 16 * Self.second) == nil)
        #expect(b.takeChanges(now: 16 * Self.second) == [.leave(cy.member, reason: .disconnected)])
        #expect(b.current.map(\.member) == [ana.member], "the resumed member stays")
        let again = peers.heard("A", now: 20 * Self.second)
        #expect(again, "a node heard again after it was given up is asked again")
    }

    /// A node frozen past its lease (SIGSTOP): its member resumed on node B meanwhile, and B's
    /// announcement reaches A before A closes the member's old connection (the lease loss).
    /// When that connection closes, A hands the member to B without a grace or a leave.
    @Test func aMemberTakenOverWhileItsOldConnectionLookedOpenGoesToTheOtherNodeWhenItCloses() throws {
        var a = Self.node(slot: 1)
        var b = Self.node(slot: 2)
        let ana = try a.join(7, owner: .token("qa"), key: Self.key, keyDigest: Self.digest, state: Self.state("Ana"), now: 0)
        try Self.relay(&a, to: &b, as: "A", now: 0)
        #expect(b.nodeLost("A", now: Self.second) != nil)
        let resumed = try b.join(
            9, owner: .token("qa"), key: Self.key, keyDigest: Self.digest, state: Self.state("Ana", cursor: 1), now: 2 * Self.second)
        #expect(resumed == .init(member: ana.member, resumed: true))
        _ = a.takeChanges(now: 3 * Self.second)
        try Self.relay(&b, to: &a, as: "B", now: 3 * Self.second)
        #expect(a.member(of: 7) == ana.member, "the old connection still looks open: A keeps it for now")
        var withdrawn = a
        #expect(a.disconnected(7, now: 4 * Self.second) == nil, "no grace: the member is node B's")
        #expect(a.expire(now: 20 * Self.second) == nil)
        #expect(a.takeChanges(now: 20 * Self.second) == [.update(ana.member, state: Self.state("Ana", cursor: 1))], "no leave")
        #expect(a.current == [PresenceEntry(member: ana.member, state: Self.state("Ana", cursor: 1))])
        // A's next announcement omits the member without a leave; B keeps it.
        try Self.relay(&a, to: &b, as: "A", now: 21 * Self.second)
        #expect(b.current.map(\.member) == [ana.member])
        // Had B's next list dropped the member first, A would have kept it as its own.
        withdrawn.applyRemote(node: "B", members: [], left: [], now: 3 * Self.second)
        #expect(withdrawn.disconnected(7, now: 4 * Self.second) == 14 * Self.second, "a grace period as usual")
    }

    @Test func theCodecReadsWhatItWritesAndRefusesTheRest() throws {
        let announcements: [PresenceAnnouncement] = [
            .alive, .hello,
            .members(
                target: "room",
                members: [SharedMember(member: MemberID(4097), state: Self.state("Ana"), keyDigest: "ab", graceMilliseconds: 1500)],
                left: [DepartedMember(member: MemberID(8193), reason: .disconnected)]),
        ]
        for announcement in announcements {
            #expect(try PresenceAnnouncementCodec.decode(PresenceAnnouncementCodec.encode(announcement)) == announcement)
        }
        for bad in [
            #"{"kind":"x"}"#, #"{"kind":"members","target":"r","members":[{"member":1,"state":3,"key":"k"}],"left":[]}"#, "[",
            #"{"kind":"members","target":"r","members":[],"left":[{"member":-1,"reason":"left"}]}"#,
        ] {
            #expect(throws: PresenceAnnouncementCodec.Invalid.self) { try PresenceAnnouncementCodec.decode(Array(bad.utf8)) }
        }
    }
}
