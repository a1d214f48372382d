import RiveSyncCore
import Testing

/// Each worker numbers its own commands (`CommandNumbering`): numbers of different workers
/// never meet, a transaction's are consecutive on one daemon, and after a restore no number
/// seen is handed out again.
@Suite struct CommandNumberingTests {
    @Test func workersOfOneDaemonNeverShareANumber() {
        var first = CommandNumbering(worker: 0, of: 2)
        var second = CommandNumbering(worker: 1, of: 2)
        let a = (0..<1000).map { _ in first.next() }
        let b = (0..<1000).map { _ in second.next() }
        #expect(a.first == 1 && b.first == 1 << 44 | 1)
        #expect(Set(a).isDisjoint(with: b))
        #expect(a == a.sorted() && b == b.sorted(), "each worker's numbers increase")
    }

    @Test func aTransactionsNumbersAreConsecutiveOnOneDaemon() {
        var numbering = CommandNumbering(worker: 3, of: 4)
        _ = numbering.next()
        let numbers = numbering.next(count: 5)
        #expect(numbers == Array(numbers[0]..<numbers[0] + 5))
        #expect(numbering.next() == numbers[4] + 1)
    }

    @Test func theLastWorkerStaysBelowJSONsExactIntegers() {
        var numbering = CommandNumbering(worker: 63, of: 64)
        numbering.ensure(counterAbove: 1 << 44 - 2)
        #expect(numbering.next() < 1 << 53)
    }

    @Test func afterARestoreNoNumberSeenIsHandedOutAgain() {
        // Numbers a previous run handed out: worker 0 up to 200, worker 1 up to 3.
        let seen: [UInt64] = [5, 200, 1 << 44 | 3]
        var workers = (0..<2).map { CommandNumbering(worker: $0, of: 2) }
        let highest = seen.map { workers[0].counter(of: $0) }.max()!
        for index in workers.indices { workers[index].ensure(counterAbove: highest) }
        let fresh = workers.indices.flatMap { index in (0..<300).map { _ in workers[index].next() } }
        #expect(Set(fresh).isDisjoint(with: seen))
        #expect(Set(fresh).count == fresh.count)
    }

    @Test func aClusterNodesWorkersAndNodesNeverShareANumber() {
        var node1 = (0..<2).map { CommandNumbering(worker: $0, of: 2, in: .cluster(slot: 1, slots: 4096)) }
        var node2 = CommandNumbering(worker: 0, of: 1, in: .cluster(slot: 2, slots: 4096))
        var numbers: [UInt64] = []
        for _ in 0..<500 {
            numbers.append(node1[0].next())
            numbers.append(node1[1].next())
            numbers.append(node2.next())
        }
        #expect(Set(numbers).count == numbers.count)
        #expect(numbers.allSatisfy { [1, 2].contains($0 % 4096) }, "each number names its node's slot")
        // A node of one worker numbers as protocol/CLUSTER.md §2.5 says: counter × 4096 + slot.
        #expect(numbers[2] == 1 * 4096 + 2)
        // Another node's number lifts the counter above it.
        node2.ensure(counterAbove: node2.counter(of: 9000 * 4096 + 1))
        #expect(node2.next() == 9001 * 4096 + 2)
    }
}
