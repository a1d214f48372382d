import RiveSyncClusterCore
import Testing

/// The append window (protocol/CLUSTER.md §2.4): order, acks on read-back, a fence and a
/// broken connection in the middle of a window, and what a `join` answers.
@Suite struct ClusterCoreWindowTests {
    /// A started node on a fresh memory Redis.
    static func node(window: Int = 64, snapshotEvery: Int = 1000) -> MemoryNode {
        let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()), window: window, snapshotEvery: snapshotEvery)
        node.connectReader()
        return node
    }

    @Test func proposalsGoOutInOrderUpToTheWindowAndAreAckedOnlyWhenReadBack() {
        let node = Self.node(window: 4)
        #expect(node.started)
        for ticket in 1...6 as ClosedRange<UInt64> { node.propose(ticket) }
        #expect(node.connects == 1)
        #expect(node.sent.map(\.ticket) == [1, 2, 3, 4], "four in flight, the rest wait")
        node.runAppends()
        #expect(node.sent.map(\.ticket) == [1, 2, 3, 4, 5, 6], "replies made room")
        #expect(node.acked.isEmpty, "an id from Redis is no ack")
        node.runAppends()
        node.read()
        #expect(node.acked == [1, 2, 3, 4, 5, 6])
        #expect(node.redis.log.map(\.ticket) == [1, 2, 3, 4, 5, 6])
        #expect(node.core.window.unanswered == 0)
    }

    @Test func aFenceInTheMiddleOfTheWindowRefusesTheRestAndTheNextProposalJoinsFirst() {
        let node = Self.node()
        for ticket in 1...4 as ClosedRange<UInt64> { node.propose(ticket) }
        node.runAppends(2)
        // Another process takes the lease key over while 3 and 4 are in flight.
        node.redis.setLease(of: "a", "someone-else", lease: .seconds(5))
        node.runAppends()
        #expect(node.failed[3] == .refused("FENCED the lease of this node has ended"))
        #expect(node.failed[4] != nil)
        node.propose(5)
        #expect(node.joins == 1, "a new token before the next append")
        let oldToken = node.sent[0].token
        #expect(node.sent.last?.ticket == 5 && node.sent.last?.token != oldToken)
        node.runAppends()
        node.read()
        #expect(node.acked == [1, 2, 5])
        let join = node.redis.log.firstIndex { $0.kind == .join }!
        #expect(!node.redis.log[join...].contains { $0.token == oldToken }, "nothing with the old token after the join")
    }

    @Test func aConnectionKilledMidWindowIsAnsweredByTheJoinsReadBack() {
        let node = Self.node()
        for ticket in 1...4 as ClosedRange<UInt64> { node.propose(ticket) }
        node.killAppendConnection(afterRunning: 2)
        // The same pass reconnects and joins at once, with nothing proposed.
        #expect(!node.core.joinForUnknown)
        #expect(node.connects == 2 && node.joins == 1)
        #expect(node.failed.isEmpty && node.acked.isEmpty, "unknown until read back")
        node.read()
        #expect(node.acked == [1, 2], "in the log before the join: acked")
        #expect(node.failed == [3: .connectionBroke, 4: .connectionBroke], "not before the join: never")
        #expect(node.core.window.unanswered == 0)
    }

    /// A connection Redis closed while idle is found before anything goes out on it: the
    /// appends wait again, in order, for a new connection and a new token, and none fails.
    @Test func appendsNotSentOnAClosedConnectionGoOutInOrderOnTheNextOne() {
        let node = Self.node()
        for ticket in 1...3 as ClosedRange<UInt64> { node.propose(ticket) }
        node.notSent(last: 3)
        #expect(node.connects == 2 && node.joins == 1, "a new connection, and a new token first")
        let token = node.sent.last!.token
        #expect(node.sent.suffix(3).map(\.ticket) == [1, 2, 3] && token != node.sent[0].token)
        node.propose(4)
        node.runAppends()
        node.read()
        #expect(node.failed.isEmpty && node.acked == [1, 2, 3, 4])
    }

    /// Sends the core made before it learnt that the connection broke: the ones in flight are
    /// answered by the join's read-back, the ones the shell could not send go out after it.
    @Test func sendsAfterABreakThatNeverWentOutAreSentAfterTheJoin() {
        let node = Self.node()
        for ticket in 1...4 as ClosedRange<UInt64> { node.propose(ticket) }
        node.killAppendConnection(afterRunning: 1, unsent: 2)
        #expect(node.joins == 1)
        #expect(node.sent.suffix(2).map(\.ticket) == [3, 4], "3 and 4 wait for the join, then go out")
        node.runAppends()
        node.read()
        #expect(node.acked == [1, 3, 4])
        #expect(node.failed == [2: .connectionBroke], "2 was in flight and did not get in before the join")
        #expect(node.core.window.unanswered == 0)
    }

    /// A join whose connection dies after its `SET` took the lease key: the new token is the
    /// lease's (its renewals hold it, no lease loss), and the next join answers what was unknown.
    @Test func aJoinCutBetweenItsSetAndItsEntryKeepsTheLease() {
        let node = Self.node()
        for ticket in 1...2 as ClosedRange<UInt64> { node.propose(ticket) }
        node.diesAfterTakingAToken = true
        node.killAppendConnection(afterRunning: 1)
        #expect(node.joins == 2 && node.connects == 3, "a new connection and join at once")
        #expect(node.core.lease.generation == 3 && node.core.lease.token == node.redis.lease(of: "a"))
        node.redis.clock.advance(.seconds(2))
        node.tick()
        #expect(node.redis.calls.last == "EVAL renew a \(node.core.lease.token)")
        #expect(node.leaseLosses == 0 && node.core.lease.state(at: node.now) == .held, "renewed with the token the lease key holds")
        node.read()
        #expect(node.acked == [1] && node.failed == [2: .connectionBroke])
    }

    @Test func everyNodeCompactsAtTheSameRecordCount() {
        let redis = MemoryRedis(clock: MockClock())
        let a = MemoryNode("a", on: redis, snapshotEvery: 3)
        let b = MemoryNode("b", on: redis, snapshotEvery: 3)
        for node in [a, b] { node.connectReader() }
        for ticket in 1...4 as ClosedRange<UInt64> {
            a.propose(ticket)
            b.propose(ticket)
        }
        a.runAppends()
        b.runAppends()
        a.read()
        b.read(count: 5)
        b.read()
        #expect(a.compactions == [redis.log[2].position, redis.log[5].position])
        #expect(b.compactions == a.compactions)
        #expect(a.committed.filter { $0.kind == .record }.count == 8 && a.core.recordCount == b.core.recordCount)
        #expect(a.acked == [1, 2, 3, 4] && b.acked == [1, 2, 3, 4])
    }
}
