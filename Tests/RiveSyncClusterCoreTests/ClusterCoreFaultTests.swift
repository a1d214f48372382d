import RiveSyncClusterCore
import Testing

/// Every fault of protocol/CLUSTER.md §3 but `WAIT` (ClusterCoreWaitTests), on the memory
/// Redis with a mock clock.
@Suite struct ClusterCoreFaultTests {
    /// §3.1: what a killed node appended applies on every node; its lease expires by itself.
    @Test func aKilledNodesEntriesApplyEverywhereAndItsLeaseExpires() {
        let redis = MemoryRedis(clock: MockClock())
        let a = MemoryNode("a", on: redis)
        let b = MemoryNode("b", on: redis)
        for node in [a, b] { node.connectReader() }
        a.propose(1)
        a.propose(2)
        a.runAppends()
        // `a` is killed: it reads nothing more, and its queued proposal 3 is lost with it.
        a.propose(3)
        b.read()
        #expect(b.committed.map(\.ticket) == [1, 2] && b.acked.isEmpty, "applied without a ticket: b answers nobody")
        #expect(redis.lease(of: "a") != nil)
        for _ in 0..<3 {
            redis.clock.advance(.seconds(2))
            b.tick()
        }
        #expect(redis.lease(of: "a") == nil)
        b.propose(7)
        b.runAppends()
        b.read()
        #expect(b.acked == [7], "nothing waits for the dead node")
    }

    /// §3.2: frozen past its lease, a node acks nothing it reads back, drops its proposals,
    /// appends nothing for the quarantine, then joins with a new token and acks again.
    @Test func aNodeFrozenPastItsLeaseAcksNothingAndRejoinsAfterItsQuarantine() {
        let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()))
        node.connectReader()
        node.propose(1)
        node.propose(2)
        node.runAppends(1)
        // SIGSTOP for two leases, then SIGCONT: the renewal timer fires first.
        node.redis.clock.advance(.seconds(10))
        node.tick()
        #expect(node.leaseLosses == 1 && node.dropped == [1, 2])
        #expect(node.core.lease.state(at: node.now) == .lost)
        node.runAppends()
        #expect(node.failed.isEmpty, "2 was refused FENCED, but it was dropped: answered never")
        node.read()
        #expect(node.committed.map(\.ticket) == [1] && node.acked.isEmpty, "read back after the lease: applied, not acked")
        node.propose(3)
        #expect(node.failed[3] == .leaseEnded, "quarantined")
        node.redis.clock.advance(.seconds(1))
        node.propose(4)
        #expect(node.joins == 1 && node.sent.last?.ticket == 4)
        node.runAppends()
        node.read()
        #expect(node.acked == [4] && node.leaseLosses == 1)
        #expect(node.core.lease.generation == 2 && node.core.lease.state(at: node.now) == .held)
    }

    /// §2.8: an entry read back once the lease is no longer surely held (four fifths of it
    /// after the last confirmed renewal, before any timer noticed) applies without an ack, and
    /// ends the lease there.
    @Test func anEntryReadBackPastTheLeasesValidityIsAppliedWithoutAnAck() {
        let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()))
        node.connectReader()
        node.propose(1)
        node.propose(2)
        node.runAppends()
        node.redis.clock.advance(.milliseconds(4500))
        node.read()
        #expect(node.committed.map(\.ticket) == [1, 2], "both in the log: applied")
        #expect(node.acked.isEmpty, "valid 4 s after the lease was taken: no ack at 4.5 s")
        #expect(node.leaseLosses == 1 && node.dropped == [2])
    }

    /// §2.8: a renewal that finds the key no longer holds the token ends the lease, once.
    @Test func aRenewalThatFindsTheTokenGoneEndsTheLeaseOnceAndDropsEveryProposal() {
        let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()))
        node.connectReader()
        node.propose(1)
        node.redis.setLease(of: "a", "someone-else", lease: .seconds(5))
        node.redis.clock.advance(.seconds(2))
        node.tick()
        #expect(node.leaseLosses == 1 && node.dropped == [1])
        node.redis.clock.advance(.seconds(2))
        node.tick()
        #expect(node.leaseLosses == 1, "one loss per generation")
        let renewals = node.redis.calls.filter { $0.hasPrefix("EVAL renew") }.count
        #expect(renewals == 2)
    }

    /// A renewal Redis confirms keeps the lease four fifths of it past when it was sent.
    @Test func confirmedRenewalsKeepTheLeaseHeld() {
        let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()))
        node.connectReader()
        for _ in 0..<10 {
            node.redis.clock.advance(.seconds(2))
            node.tick()
        }
        #expect(node.leaseLosses == 0 && node.core.lease.state(at: node.now) == .held)
        node.redis.clock.advance(.milliseconds(3999))
        #expect(node.core.lease.state(at: node.now) == .held)
        node.redis.clock.advance(.milliseconds(2))
        #expect(node.core.lease.state(at: node.now) == .lost, "4 s (four fifths) after the last renewal was sent")
    }

    /// A renewal that got no answer (on a connection Redis closed, as after its restart) is
    /// tried again at the next tick of the shell's clock (every sixth of the lease), so one
    /// failure does not end the lease.
    @Test func aRenewalThatGotNoAnswerIsTriedAgainAtTheNextTick() {
        let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()))
        node.connectReader()
        node.failsNextRenewal = true
        for _ in 0..<12 {
            node.redis.clock.advance(.milliseconds(833))
            node.tick()
        }
        #expect(node.leaseLosses == 0 && node.core.lease.state(at: node.now) != .lost)
        #expect(node.redis.calls.filter { $0.hasPrefix("EVAL renew") }.count >= 3, "renewed again after the failure")
    }

    /// §3.3: while Redis is down, writes are refused at once without being sent; an append in
    /// flight is unknown until the join's read-back answers it; freshness goes false, then true.
    @Test func whileRedisIsDownWritesAreRefusedAtOnceAndAnUnknownAppendIsAnsweredByTheJoin() {
        let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()))
        node.connectReader()
        node.propose(1)
        node.propose(2)
        node.redis.down = true
        node.read()
        #expect(node.freshness == [false])
        node.runAppends()
        #expect(node.core.joinForUnknown && node.failed.isEmpty, "1 and 2 may be in the log")
        node.propose(3)
        #expect(node.failed[3] == .unreachable && node.sent.count == 2, "refused at once, never sent")
        node.redis.clock.advance(.milliseconds(300))
        node.tick()
        #expect(node.joins == 0, "no join while the reader cannot read")
        node.redis.down = false
        node.connectReader()
        node.read()
        #expect(node.freshness == [false, true])
        node.tick()
        #expect(node.joins == 1)
        node.read()
        #expect(node.failed[1] == .connectionBroke && node.failed[2] == .connectionBroke)
        node.propose(4)
        node.runAppends()
        node.read()
        #expect(node.acked == [4], "the first write after the outage acks")
    }

    /// §3.3: a connect that fails refuses what waits and pauses connecting.
    @Test func aFailedConnectRefusesTheQueueAndPausesConnecting() {
        let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()))
        node.connectReader()
        node.redis.down = true
        node.propose(1)
        node.propose(2)
        #expect(node.connects == 1 && node.failed == [1: .unreachable, 2: .unreachable])
        node.redis.down = false
        node.propose(3)
        #expect(node.connects == 1 && node.failed[3] == .unreachable, "within the pause: no connect")
        node.redis.clock.advance(.milliseconds(200))
        node.propose(4)
        #expect(node.connects == 2 && node.joins == 1, "a new connection takes a new token first")
        node.runAppends()
        node.read()
        #expect(node.acked == [4])
    }

    /// A writer and a reader on one Redis: the reader finds Redis down (stale), the writer's
    /// `tickets` go in while the reader is away, and the reader connects again.
    static func readerStaleWhile(
        appending tickets: ClosedRange<UInt64>
    ) -> (redis: MemoryRedis, writer: MemoryNode, reader: MemoryNode) {
        let redis = MemoryRedis(clock: MockClock())
        let writer = MemoryNode("w", on: redis)
        let reader = MemoryNode("r", on: redis)
        writer.connectReader()
        reader.connectReader()
        redis.down = true
        reader.read()
        redis.down = false
        for ticket in tickets { writer.propose(ticket) }
        writer.runAppends()
        reader.connectReader()
        return (redis, writer, reader)
    }

    /// §3.3: a reader that lags behind a busy log is fresh once it has applied every entry the
    /// stream held when it reconnected, though more keep coming.
    @Test func aLaggingReaderIsFreshOnceItReachesTheLastEntryAsOfItsReconnection() {
        let (redis, writer, reader) = Self.readerStaleWhile(appending: 1...10)
        for ticket in 11...15 as ClosedRange<UInt64> { writer.propose(ticket) }
        writer.runAppends()
        reader.read(count: 4)
        reader.read(count: 4)
        #expect(reader.freshness == [false] && !reader.core.reader.fresh)
        reader.read(count: 4)
        #expect(reader.freshness == [false, true], "the 10th entry read: fresh, with 15 in the log")
        #expect(reader.core.reader.position == redis.log[11].position)
    }

    /// A read whose last entries reach the core not at all — voided after a `WAIT` timeout, or
    /// unreadable — still takes the reader past them (`upTo`): fresh again once that is the
    /// stream's last entry as of the reconnection.
    @Test func aReadPastEntriesNobodyAppliesStillCatchesUp() {
        let (redis, _, reader) = Self.readerStaleWhile(appending: 1...3)
        reader.handle(.read(Array(redis.log.prefix(1)), upTo: redis.log[0].position, now: reader.now))
        #expect(reader.freshness == [false])
        reader.handle(.read([], upTo: redis.log[2].position, now: reader.now))
        #expect(reader.freshness == [false, true], "past the stream's last entry, though nothing of it was handed in")
        #expect(reader.core.reader.position == redis.log[2].position && reader.committed.count == 1)
    }

    /// §2.7: a reader behind a trim leaves (exit 75); one within the slack reads on.
    @Test func aTrimPastAReaderLosesItsLogAndOneWithinTheSlackReadsOn() {
        let redis = MemoryRedis(clock: MockClock())
        let writer = MemoryNode("w", on: redis, snapshotEvery: 4)
        let slow = MemoryNode("slow", on: redis, snapshotEvery: 4)
        let lagging = MemoryNode("lagging", on: redis, snapshotEvery: 4)
        for node in [writer, slow, lagging] { node.connectReader() }
        for ticket in 1...12 as ClosedRange<UInt64> { writer.propose(ticket) }
        writer.runAppends()
        lagging.read(count: 7)
        writer.read()
        #expect(writer.compactions == [redis.log[3].position, redis.log[7].position, redis.log[11].position])
        // Stores at entries 4, 8 and 12: the third trims below the second's trim point.
        var point: LogPosition?
        for compaction in writer.compactions {
            if let cut = LogTrim.cut(previousPoint: point, livePins: []) { redis.trim(below: cut) }
            point = LogTrim.nextPoint(previousPoint: point, lowestSnapshot: compaction)
        }
        #expect(redis.log.first?.position == writer.compactions[1])
        slow.read()
        #expect(slow.loss == .behindTrim)
        lagging.read()
        #expect(lagging.loss == nil && lagging.committed.count == 12, "it had read entry 7, the last the trims deleted")
    }

    /// §2.7: a starting node's pin holds the trim below where it reads from.
    @Test func aLivePinHoldsTheTrim() {
        let old = LogPosition(8, 0)
        #expect(LogTrim.cut(previousPoint: old, livePins: [LogPosition(3, 0)]) == LogPosition(3, 0))
        #expect(LogTrim.cut(previousPoint: old, livePins: [LogPosition(9, 0)]) == old)
        #expect(LogTrim.cut(previousPoint: nil, livePins: [LogPosition(3, 0)]) == nil, "nothing stored before: no trim")
        #expect(LogTrim.nextPoint(previousPoint: old, lowestSnapshot: LogPosition(12, 0)) == LogPosition(12, 0))
    }

    /// §3.5 and §3.6 with `waitForReplicas` 0: a failover to a replica that lacked the newest
    /// entries loses acked writes, and the node that applied them leaves.
    @Test func withoutWaitAFailoverLosesAckedWritesAndTheNodeThatAppliedThemLeaves() {
        let redis = MemoryRedis(clock: MockClock())
        let node = MemoryNode("a", on: redis)
        node.connectReader()
        node.propose(1)
        node.runAppends()
        redis.replicaFrozen = true
        node.propose(2)
        node.propose(3)
        node.runAppends()
        node.read()
        #expect(node.acked == [1, 2, 3], "acked as soon as the primary has them")
        redis.failover()
        #expect(redis.log.map(\.ticket) == [1], "2 and 3 were acked and are gone")
        node.read()
        #expect(node.loss == .wentBack)
        node.propose(4)
        #expect(node.sent.count == 3, "a lost log decides nothing more")
    }

    /// §3.5: the epoch changed (a `FLUSHALL`, another dataset).
    @Test func anotherEpochIsALogThatWentBack() {
        let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()))
        node.connectReader()
        node.redis.epoch = "epoch-2"
        node.read()
        #expect(node.loss == .wentBack)
    }
}
