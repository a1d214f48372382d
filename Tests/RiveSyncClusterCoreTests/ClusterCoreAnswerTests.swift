import RiveSyncClusterCore
import Testing

/// Every proposal gets exactly one answer (protocol/CLUSTER.md §2.4): acked from the log, or
/// `appendFailed` because it surely is not there, or dropped with the lease — never none, never
/// two, never acked and not in the log, never refused and in it — wherever the append
/// connection or Redis breaks in a full window, however the join goes, and in whichever order
/// the reader and the append connection report to the shell.
@Suite struct ClusterCoreAnswerTests {
    /// What breaks.
    enum Fault: CaseIterable {
        /// The append connection is killed (`CLIENT KILL`); Redis stays up.
        case connectionKilled
        /// Redis is killed and restarted with its entries, within the lease.
        case redisRestarted
        /// Redis is killed and restarted with its entries after the node's lease ran out.
        case redisRestartedAfterTheLease
    }

    /// How the first join after the break goes.
    enum JoinFate: CaseIterable {
        case answered
        /// The reader reads its `join` entry before the shell reports its token.
        case readBeforeItsAnswer
        /// Its connection dies after the `SET`, before the `join` entry.
        case diesAfterItsToken
        /// Its connection dies after the `join` entry went in, before the reply.
        case diesAfterItsEntry
        /// As `diesAfterItsEntry`, and the reader reads the entry before the shell reports the token.
        case diesAfterItsEntryReadFirst
        /// Its connection is found closed before anything went out.
        case fails
    }

    struct Scenario: CustomStringConvertible {
        /// Piped appends Redis ran and answered before the break.
        var answered: Int
        /// Further piped appends Redis ran whose replies the break lost.
        var ranUnanswered: Int
        /// Sends the core made that the shell found it could not send any more.
        var unsent: Int
        var fault: Fault
        var join: JoinFate

        var description: String {
            "\(fault), \(answered) answered, \(ranUnanswered) ran unanswered, \(unsent) not sent, join \(join)"
        }

        static var all: [Scenario] {
            var all: [Scenario] = []
            for fault in Fault.allCases {
                for join in JoinFate.allCases {
                    for answered in [0, 2] {
                        for ranUnanswered in [0, 1, 4] {
                            for unsent in [0, 2] where ranUnanswered + unsent <= 4 {
                                all.append(
                                    Scenario(answered: answered, ranUnanswered: ranUnanswered, unsent: unsent, fault: fault, join: join))
                            }
                        }
                    }
                }
            }
            return all
        }
    }

    /// Ten proposals in a window of four; the scenario's break; then the node goes on — the
    /// reader reads, Redis runs what is piped, the clock moves, one more proposal comes (a
    /// node whose lease ended in the outage joins at its next write) — until nothing waits.
    @Test func everyProposalIsAnsweredOnceWhateverBreaksMidWindow() {
        for scenario in Scenario.all {
            let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()), window: 4)
            node.connectReader()
            for ticket in 1...10 as ClosedRange<UInt64> { node.propose(ticket) }
            node.runAppends(scenario.answered)
            switch scenario.join {
            case .answered: break
            case .readBeforeItsAnswer: node.holdsJoinAnswers = true
            case .diesAfterItsToken: node.diesAfterTakingAToken = true
            case .diesAfterItsEntry: node.diesAfterItsJoinEntry = true
            case .diesAfterItsEntryReadFirst:
                node.diesAfterItsJoinEntry = true
                node.holdsJoinAnswers = true
            case .fails: node.failsNextJoin = true
            }
            switch scenario.fault {
            case .connectionKilled:
                node.killAppendConnection(afterRunning: scenario.ranUnanswered, unsent: scenario.unsent)
            case .redisRestarted, .redisRestartedAfterTheLease:
                node.redisDies(afterRunning: scenario.ranUnanswered, unsent: scenario.unsent)
                node.read()
                node.redis.clock.advance(scenario.fault == .redisRestarted ? .milliseconds(300) : .seconds(6))
                node.tick()
                node.redis.down = false
            }
            settle(node, proposing: 11)
            check(node, proposed: 11, scenario)
        }
    }

    /// The join's `join` entry is read before the shell reports the join's token (the reader
    /// and the append connection race to the worker's queue): what the break left unknown is
    /// answered once the token comes — the entry is not read again.
    @Test func aJoinReadBeforeItsTokenIsReportedAnswersWhatWasUnknownOnceItIs() {
        let node = MemoryNode("a", on: MemoryRedis(clock: MockClock()))
        node.connectReader()
        for ticket in 1...4 as ClosedRange<UInt64> { node.propose(ticket) }
        node.holdsJoinAnswers = true
        node.killAppendConnection(afterRunning: 1)
        node.read()
        #expect(node.acked == [1] && node.failed.isEmpty, "the join's token is not known yet")
        node.releaseJoinAnswers()
        #expect(node.failed == [2: .connectionBroke, 3: .connectionBroke, 4: .connectionBroke])
        #expect(node.core.window.unanswered == 0)
    }

    /// Runs the node until nothing waits (at most a hundred rounds), proposing `ticket` after
    /// the third.
    func settle(_ node: MemoryNode, proposing ticket: UInt64) {
        for round in 0..<100 {
            if round == 3 { node.propose(ticket) }
            node.read()
            node.releaseJoinAnswers()
            node.runAppends()
            node.read()
            node.releaseJoinAnswers()
            node.redis.clock.advance(.milliseconds(250))
            node.tick()
            if round > 3, node.core.window.unanswered == 0, node.pipe.isEmpty { return }
        }
    }

    /// Each of tickets 1...`proposed` answered once; acked ones are in the log, refused ones
    /// are not.
    func check(_ node: MemoryNode, proposed: UInt64, _ scenario: Scenario) {
        let inLog = Set(node.redis.log.filter { $0.kind == .record && $0.node == node.name }.map(\.ticket))
        let acked = Set(node.acked)
        let failed = Set(node.failed.keys)
        let dropped = Set(node.dropped)
        for ticket in 1...proposed {
            let answers = [acked, failed, dropped].filter { $0.contains(ticket) }.count
            #expect(answers == 1, "ticket \(ticket): \(answers) answers (\(scenario))")
        }
        #expect(node.acked.count == acked.count, "a ticket acked twice (\(scenario))")
        #expect(acked.isSubset(of: inLog), "acked and not in the log: \(acked.subtracting(inLog).sorted()) (\(scenario))")
        #expect(failed.isDisjoint(with: inLog), "refused and in the log: \(failed.intersection(inLog).sorted()) (\(scenario))")
        #expect(node.core.window.unanswered == 0, "\(node.core.window.stages) (\(scenario))")
    }
}
