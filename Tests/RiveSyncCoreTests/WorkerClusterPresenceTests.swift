import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// Presence shared by two cluster nodes' worker cores (protocol/CLUSTER.md §2.9) with the mock
/// clock: announcements out as actions, in as events — a member of A in a subscriber's
/// messages on B, the hello a new node gets answered with, and a silent node given up.
@Suite struct WorkerClusterPresenceTests {
    static let second: UInt64 = 1_000_000_000
    static let lease = 3 * second
    static let alice = ConnectionID(1)
    static let carol = ConnectionID(3)

    static func node(slot: UInt64) throws -> WorkerDriver {
        let driver = try WorkerDriver()
        driver.configure { $0.presenceSharing = PresenceSharing(slot: slot, slots: 4096, leaseNanoseconds: lease) }
        return driver
    }

    static func announcements(_ actions: [WorkerAction]) -> [PresenceAnnouncement] {
        actions.compactMap { action in
            guard case .sharePresence(let announcement) = action else { return nil }
            return announcement
        }
    }

    /// Hands every announcement of `actions` to `node` as `sender`'s; returns its actions.
    static func deliver(_ actions: [WorkerAction], to node: WorkerDriver, from sender: String) -> [WorkerAction] {
        announcements(actions).flatMap { node.run(.presenceAnnounced(node: sender, $0)) }
    }

    @Test func aMemberOfOneNodeReachesTheOthersSubscribersAndLeavesWhenItsNodeGoesSilent() throws {
        let a = try Self.node(slot: 1)
        let b = try Self.node(slot: 2)
        let started = a.run(.presenceSharingStarted)
        #expect(Self.announcements(started) == [.hello])
        #expect(WorkerDriver.timers(started).map(\.1) == [a.environment.clock + Self.lease / 3])
        b.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.carol)

        let joined = a.request(.presence(.join(target: "room", key: "alice-key-0123456789", state: ["name": "Ana"])), from: Self.alice)
        let member = MemberID(4096 + 1)
        #expect(
            Self.announcements(joined) == [
                .members(
                    target: "room",
                    members: [SharedMember(member: member, state: ["name": "Ana"], keyDigest: "bytes-30", graceMilliseconds: nil)],
                    left: [])
            ])
        let onB = Self.deliver(joined, to: b, from: "A")
        #expect(Self.announcements(onB) == [.hello], "B asks the node it did not know for its members")
        let seen = try WorkerDriver.messages(onB, to: Self.carol)
        #expect(
            seen.map(\.jsonText) == [
                #"{"type":"presence","target":"room","epoch":"e-1","seq":0,"changes":[{"op":"join","member":"p-4097","state":{"name":"Ana"}}]}"#
            ])
        let answered = Self.deliver(onB, to: a, from: "B")
        #expect(
            Self.announcements(answered).contains {
                if case .members(_, let members, _) = $0 { members.map(\.member) == [member] } else { false }
            })

        // A goes silent: B gives it up after two thirds of a lease, and Ana leaves a grace later.
        b.environment.clock += Self.lease
        let check = b.fire(.presencePeers)
        #expect(Self.announcements(check) == [.alive])
        let grace = try #require(WorkerDriver.timers(check).first { $0.0 == .presenceGrace(target: "room") })
        #expect(grace.1 == b.environment.clock + 10 * Self.second)
        b.environment.clock = grace.1
        let left = try WorkerDriver.messages(b.fire(.presenceGrace(target: "room")), to: Self.carol)
        #expect(left.first?["changes"] == [["op": "leave", "member": "p-4097", "reason": "disconnected"]])
    }
}

extension WorkerClusterPresenceTests {
    /// An announcement of a target whose record has not been applied here yet (it comes by the
    /// cluster's log, the announcement by another stream) waits for it; one of a target that
    /// never comes is dropped after a lease.
    @Test func anAnnouncementOfATargetNotHereYetWaitsForIt() throws {
        let b = try Self.node(slot: 2)
        let member = SharedMember(member: MemberID(4097), state: ["name": "Ana"], keyDigest: "k", graceMilliseconds: nil)
        _ = b.run(.presenceAnnounced(node: "A", .members(target: "later", members: [member], left: [])))
        _ = b.run(.presenceAnnounced(node: "A", .members(target: "never", members: [member], left: [])))
        guard case .instance(let instance, _) = try b.shell.commit(.createInstance(.blank(from: .name("Room"))), file: "demo") else {
            Issue.record("no instance")
            return
        }
        try b.shell.settle(b.core.publish(instance, as: "later", file: "demo"))
        _ = b.takeActions()
        b.environment.clock += Self.lease / 3
        _ = b.fire(.presencePeers)
        let listed = try WorkerDriver.messages(b.request(.presence(.list(target: "later")), from: Self.carol), to: Self.carol)
        #expect(listed.first?["members"] == [["member": "p-4097", "state": ["name": "Ana"]]], "\(listed.map(\.jsonText))")
        b.environment.clock += Self.lease
        _ = b.fire(.presencePeers)
        guard case .instance(let other, _) = try b.shell.commit(.createInstance(.blank(from: .name("Room"))), file: "demo") else {
            Issue.record("no instance")
            return
        }
        try b.shell.settle(b.core.publish(other, as: "never", file: "demo"))
        _ = b.takeActions()
        b.environment.clock += Self.lease / 3
        _ = b.fire(.presencePeers)
        let none = try WorkerDriver.messages(b.request(.presence(.list(target: "never")), from: Self.carol), to: Self.carol)
        #expect(none.first?["members"] == [], "an announcement a lease old was dropped: \(none.map(\.jsonText))")
    }
}
