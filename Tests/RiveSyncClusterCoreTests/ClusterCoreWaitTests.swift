import RiveSyncClusterCore
import Testing

/// `waitForReplicas` (protocol/CLUSTER.md §3.6): an append whose `WAIT` times out is answered
/// `storage_failed` and applies on no node, unless a node confirmed it first; with `WAIT` a
/// failover loses no acked write.
@Suite struct ClusterCoreWaitTests {
    static func cluster() -> (MemoryRedis, MemoryNode, MemoryNode) {
        let redis = MemoryRedis(clock: MockClock())
        let a = MemoryNode("a", on: redis, waitsForReplica: true)
        let b = MemoryNode("b", on: redis, waitsForReplica: true)
        for node in [a, b] { node.connectReader() }
        return (redis, a, b)
    }

    @Test func anAppendWhoseWaitTimesOutIsAnsweredStorageFailedAndAppliesNowhere() {
        let (redis, a, b) = Self.cluster()
        redis.replicaFrozen = true
        a.propose(1)
        a.runAppends()
        a.read()
        #expect(a.freshness == [false], "cut off while the replica does not confirm")
        #expect(a.failed[1] == .replicasBehind)
        #expect(redis.voided == [redis.log[0].position])
        a.propose(2)
        #expect(a.failed[2] == .unreachable, "new writes refused at once meanwhile")
        redis.replicaFrozen = false
        redis.replicate()
        a.read()
        b.read()
        #expect(a.freshness == [false, true])
        #expect(a.committed.isEmpty && b.committed.isEmpty, "voided: no node applies it")
        #expect(a.acked.isEmpty && a.core.recordCount == 0 && b.core.recordCount == 0)
        a.propose(3)
        a.runAppends()
        a.read()
        b.read()
        #expect(a.acked == [3] && b.committed.map(\.ticket) == [3])
    }

    @Test func aVoidTooLateLeavesTheAppendToBeAckedWhenReadBack() {
        let (redis, a, b) = Self.cluster()
        redis.replicaFrozen = true
        a.propose(1)
        a.runAppends()
        // The replica catches up, and b confirms the entry before a's WAIT times out and
        // asks for the void.
        redis.replicaFrozen = false
        redis.replicate()
        b.read()
        redis.replicaFrozen = true
        a.propose(2)
        a.runAppends()
        a.read()
        #expect(redis.voided == [redis.log[1].position], "1 was confirmed by b: only 2 is voided")
        #expect(a.failed == [2: .replicasBehind])
        redis.replicaFrozen = false
        redis.replicate()
        a.read()
        b.read()
        #expect(a.acked == [1])
        #expect(a.committed.map(\.ticket) == [1] && b.committed.map(\.ticket) == [1], "every node applies the same")
    }

    @Test func withWaitAFailoverLosesNoAckedWrite() {
        let (redis, a, _) = Self.cluster()
        a.propose(1)
        a.runAppends()
        a.read()
        #expect(a.acked == [1], "the replica holds it")
        redis.replicaFrozen = true
        a.propose(2)
        a.runAppends()
        a.read()
        #expect(a.acked == [1] && a.failed[2] == .replicasBehind, "nothing the replica lacks is applied")
        redis.failover()
        a.read()
        #expect(a.loss == nil, "it applied nothing the promoted replica lacks")
        #expect(redis.log.map(\.ticket) == [1], "every acked write is in the new primary's log")
    }

    @Test func cutOffForAWholeLeaseEndsTheLease() {
        let (redis, a, _) = Self.cluster()
        redis.replicaFrozen = true
        a.propose(1)
        a.propose(2)
        a.runAppends(1)
        a.read()
        for _ in 0..<3 {
            redis.clock.advance(.seconds(2))
            a.tick()
        }
        #expect(a.leaseLosses == 1 && a.dropped == [2], "1 was voided and answered; 2 dropped")
        #expect(a.failed == [1: .replicasBehind])
    }
}
