import RiveSyncClusterCore
import Testing

/// A cluster node of the tests: a `ClusterCore` whose actions this shell performs on a
/// `MemoryRedis`, step by step as each test says (Redis runs the piped appends when the test
/// says so; the reader reads when it says so). It checks, at every event, that the core made
/// no call of its own: Redis's call log is the same before and after `handle`.
final class MemoryNode {
    let name: String
    let redis: MemoryRedis
    let lease: Duration
    /// True when the cluster waits for the replica before applying (`waitForReplicas` 1).
    let waitsForReplica: Bool
    private(set) var core: ClusterCore
    /// Set: the next join's connection dies after its `SET`, before its `join` entry.
    var diesAfterTakingAToken = false
    /// Set: the next join's connection dies after its `join` entry went in, before its reply.
    var diesAfterItsJoinEntry = false
    /// Set: the next join finds its connection closed before anything went out.
    var failsNextJoin = false
    /// Set: the next renewal gets no answer (its connection was closed, as after a restart).
    var failsNextRenewal = false
    /// Set: a join's answers reach the core only at `releaseJoinAnswers` (the reader may read
    /// its `join` entry first: the two connections race to the shell).
    var holdsJoinAnswers = false
    private var heldJoinAnswers: [ClusterEvent] = []
    /// Appends sent on the append connection and not run by Redis yet.
    private(set) var pipe: [(ticket: UInt64, token: String)] = []
    private var events: [ClusterEvent] = []
    /// After a failed read the reader looks the stream's last entry up again before reading.
    private var lookUp = false

    // What the node did, for the tests to check.
    private(set) var acked: [UInt64] = []
    private(set) var failed: [UInt64: AppendFailure] = [:]
    private(set) var committed: [LogEntry] = []
    private(set) var dropped: [UInt64] = []
    private(set) var leaseLosses = 0
    private(set) var freshness: [Bool] = []
    private(set) var started = false
    private(set) var compactions: [LogPosition] = []
    private(set) var wakes: [ClusterInstant] = []
    private(set) var loss: LogLoss?
    private(set) var connects = 0
    private(set) var joins = 0
    /// Every append sent, with its token.
    private(set) var sent: [(ticket: UInt64, token: String)] = []

    init(
        _ name: String, on redis: MemoryRedis, lease: Duration = .seconds(5), window: Int = 64, snapshotEvery: Int = 1000,
        waitsForReplica: Bool = false
    ) {
        self.name = name
        self.redis = redis
        self.lease = lease
        self.waitsForReplica = waitsForReplica
        let token = redis.newToken()
        redis.setLease(of: name, token, lease: lease)
        core = ClusterCore(
            ClusterCore.Settings(node: name, lease: lease, snapshotEvery: snapshotEvery, window: window), token: token,
            sentAt: redis.clock.now)
    }

    var now: ClusterInstant { redis.clock.now }

    /// Hands `event` to the core and performs its actions, and those of the events they give.
    func handle(_ event: ClusterEvent) { handle([event]) }

    /// Hands `batch` to the core in order, each before what the actions of the ones before it
    /// give (as events the shell delivered before those actions were performed).
    func handle(_ batch: [ClusterEvent]) {
        events += batch
        while !events.isEmpty {
            let next = events.removeFirst()
            let calls = redis.calls.count
            let actions = core.handle(next)
            #expect(redis.calls.count == calls, "the core called Redis while deciding on \(next)")
            for action in actions { perform(action) }
        }
    }

    // MARK: The test's steps

    func propose(_ ticket: UInt64) { handle(.proposed(ticket: ticket, now: now)) }

    func tick() { handle(.tick(now: now)) }

    /// Redis runs the first `count` piped appends and answers each.
    func runAppends(_ count: Int = .max) {
        let running = pipe.prefix(count)
        pipe.removeFirst(running.count)
        for append in running {
            if redis.down {
                pipe = []
                handle(.appendConnectionBroke(now: now))
                return
            }
            if redis.append(.record, node: name, token: append.token, ticket: append.ticket) != nil {
                handle(.appendAccepted(now: now))
            } else {
                handle(.appendRefused(message: "FENCED the lease of this node has ended", fenced: true, now: now))
            }
        }
    }

    /// The append connection is killed after Redis ran `ran` of the piped appends (their
    /// replies lost with it).
    /// `unsent`: sends made meanwhile that the shell could not send any more (reported after).
    func killAppendConnection(afterRunning ran: Int, unsent: Int = 0) {
        for append in pipe.prefix(ran) { _ = redis.append(.record, node: name, token: append.token, ticket: append.ticket) }
        let late = pipe.suffix(unsent).map(\.ticket)
        pipe = []
        handle([.appendConnectionBroke(now: now)] + (late.isEmpty ? [] : [.notSent(late, now: now)]))
    }

    /// The shell finds the append connection closed before sending the last `count` piped
    /// appends: they never went out. After `killAppendConnection` they are sends the core made
    /// before it learnt of the break.
    func notSent(last count: Int) {
        let unsent = pipe.suffix(count).map(\.ticket)
        pipe.removeLast(unsent.count)
        handle(.notSent(unsent, now: now))
    }

    /// Hands the core the answers of the joins held by `holdsJoinAnswers`.
    func releaseJoinAnswers() {
        let answers = heldJoinAnswers
        heldJoinAnswers = []
        handle(answers)
    }

    /// Redis dies after running the first `ran` piped appends (their replies lost with it): the
    /// append connection breaks; `unsent`: as for `killAppendConnection`. Redis answers nothing
    /// until `redis.down` is false again; it restarts with every entry it ran (`appendfsync always`).
    func redisDies(afterRunning ran: Int, unsent: Int = 0) {
        for append in pipe.prefix(ran) { _ = redis.append(.record, node: name, token: append.token, ticket: append.ticket) }
        redis.down = true
        let late = pipe.suffix(unsent).map(\.ticket)
        pipe = []
        handle([.appendConnectionBroke(now: now)] + (late.isEmpty ? [] : [.notSent(late, now: now)]))
    }

    /// The reader (re)connects: it looks up the stream's last entry.
    func connectReader() {
        lookUp = redis.down
        guard !redis.down else { return handle(.readFailed(now: now)) }
        handle(.readerConnected(last: redis.log.last?.position, now: now))
    }

    /// One read of at most `count` entries: checked, confirmed by the replica when the cluster
    /// waits for it, then handed on.
    func read(count: Int = 512) {
        if lookUp { connectReader() }
        guard !redis.down else {
            lookUp = true
            return handle(.readFailed(now: now))
        }
        let after = core.reader.position
        let entries = redis.read(after: after, count: count)
        if case .lost(let loss) = redis.check(epoch: "epoch-1", after: after, first: entries.first?.position) {
            return handle(.checkFailed(loss))
        }
        guard let last = entries.last else { return handle(.readNothing(now: now)) }
        if waitsForReplica {
            guard redis.replicaHolds(last.position) else {
                lookUp = true
                handle(.replicasBehind(entries, now: now))
                return handle(.readFailed(now: now))
            }
            return handle(.read(redis.confirm(entries), upTo: last.position, now: now))
        }
        handle(.read(entries, upTo: last.position, now: now))
    }

    // MARK: Performing actions

    private func perform(_ action: ClusterAction) {
        switch action {
        case .connect:
            connects += 1
            events.append(redis.down ? .connectFailed(now: now) : .connected(now: now))
        case .send(let ticket, let token):
            sent.append((ticket, token))
            pipe.append((ticket, token))
        case .join:
            joins += 1
            guard !redis.down, !failsNextJoin else {
                failsNextJoin = false
                return events.append(.joinFailed(connectionClosed: true, now: now))
            }
            let token = redis.newToken()
            let sentAt = now
            redis.setLease(of: name, token, lease: lease)
            var answers: [ClusterEvent] = [
                .tokenTaken(token: token, sentAt: sentAt, now: now), .joinFailed(connectionClosed: true, now: now),
            ]
            if diesAfterTakingAToken {
                diesAfterTakingAToken = false
            } else {
                _ = redis.append(.join, node: name, token: token, ticket: 0)
                if diesAfterItsJoinEntry {
                    diesAfterItsJoinEntry = false
                } else {
                    answers = [.joined(token: token, sentAt: sentAt, now: now)]
                }
            }
            if holdsJoinAnswers { heldJoinAnswers += answers } else { events += answers }
        case .renewLease(let token, let generation):
            guard !redis.down, !failsNextRenewal else {
                failsNextRenewal = false
                return events.append(.leaseRenewalFailed(now: now))
            }
            let sentAt = now
            let held = redis.renew(name, token, lease: lease)
            events.append(.leaseRenewed(generation: generation, sentAt: sentAt, held: held, now: now))
        case .wake(let at):
            wakes.append(at)
        case .commit(let entry, let ticket, let compacts):
            committed.append(entry)
            if let ticket {
                #expect(failed[ticket] == nil && !acked.contains(ticket), "ticket \(ticket) answered twice")
                acked.append(ticket)
            }
            if compacts { compactions.append(entry.position) }
        case .appendFailed(let ticket, let failure):
            #expect(failed[ticket] == nil && !acked.contains(ticket), "ticket \(ticket) answered twice")
            failed[ticket] = failure
        case .leaseLost(let tickets):
            leaseLosses += 1
            dropped += tickets
        case .freshness(let fresh):
            freshness.append(fresh)
        case .caughtUpAtStart:
            started = true
        case .void(let ticket, let position):
            guard !redis.down else { return }
            events.append(.voidAnswered(ticket: ticket, voided: redis.void(position), now: now))
        case .logLost(let loss):
            self.loss = loss
        }
    }
}
