/// A cluster node's decisions on its log (protocol/CLUSTER.md §2.4–§3.6) as a state machine:
/// the shell carries each of Redis's answers and the clock's readings in as a `ClusterEvent`,
/// and performs the `ClusterAction`s `handle` returns. The core holds no connection, reads no
/// clock and calls nothing.
public struct ClusterCore: Sendable {
    /// What the nodes of a cluster agree on, and this node's name.
    public struct Settings: Sendable {
        public var node: String
        public var lease: Duration
        /// Records between compactions (the same on every node).
        public var snapshotEvery: Int
        /// Appends in flight at most.
        public var window: Int
        /// How long a node whose lease ended appends nothing.
        public var quarantine: Duration
        /// How soon a join that could not go out is tried again.
        public var joinRetry: Duration
        /// How long appends are refused without connecting after a failed connect.
        public var reconnectPause: Duration

        public init(
            node: String, lease: Duration, snapshotEvery: Int, window: Int = 64, quarantine: Duration = .seconds(1),
            joinRetry: Duration = .milliseconds(200), reconnectPause: Duration = .milliseconds(200)
        ) {
            self.node = node
            self.lease = lease
            self.snapshotEvery = max(1, snapshotEvery)
            self.window = window
            self.quarantine = quarantine
            self.joinRetry = joinRetry
            self.reconnectPause = reconnectPause
        }
    }

    /// The append connection.
    public enum Connection: Hashable, Sendable {
        case closed
        case connecting
        case open
    }

    public let settings: Settings
    public private(set) var lease: ClusterLease
    public private(set) var window: AppendWindow
    public private(set) var reader: ReaderPosition
    public private(set) var connection = Connection.closed
    /// Record entries in the whole log up to the one committed last (the same on every node).
    public private(set) var recordCount: UInt64
    /// Set once the log was found lost: nothing more is decided.
    public private(set) var lost = false
    /// Set when the connection broke with appends in flight: a join answers them.
    public private(set) var joinForUnknown = false
    /// Why a join was asked for.
    private enum JoinReason: Sendable {
        /// For the oldest queued proposal (a failed join refuses it).
        case queued
        /// To answer the appends left unknown by a broken connection.
        case unknown
    }
    /// A join asked for and not answered yet.
    private var joining: JoinReason?
    /// The token of this node's `join` entry read while a join was asked for, before the shell
    /// reported which token it took (`joined` / `tokenTaken`).
    private var joinReadBeforeItsToken: String?
    /// True once the reader caught up the first time.
    private var started = false
    /// True while the node told that its state may be behind.
    private var staleReported = false
    /// Appends are refused without connecting until then, after a failed connect.
    private var unreachableUntil = ClusterInstant(nanoseconds: 0)
    /// A `wake` asked for and not come yet.
    private var wakeAt: ClusterInstant?
    /// When the next lease renewal is due.
    private var renewalDue: ClusterInstant

    /// A node that took `token` at `sentAt` and reads the log after `position` (a restored
    /// node: its snapshot's entry, with `recordCount` records up to it).
    public init(_ settings: Settings, token: String, sentAt: ClusterInstant, after position: LogPosition = .start, recordCount: UInt64 = 0)
    {
        self.settings = settings
        lease = ClusterLease(token: token, sentAt: sentAt, duration: settings.lease)
        window = AppendWindow(capacity: settings.window)
        reader = ReaderPosition(after: position)
        self.recordCount = recordCount
        renewalDue = sentAt.adding(settings.lease / 3)
    }

    /// Decides on `event`: what the shell does next, in order.
    public mutating func handle(_ event: ClusterEvent) -> [ClusterAction] {
        guard !lost else { return [] }
        var actions: [ClusterAction] = []
        let now: ClusterInstant
        switch event {
        case .proposed(let ticket, let at):
            now = at
            window.propose(ticket)
        case .connected(let at):
            now = at
            connection = .open
        case .connectFailed(let at):
            now = at
            connectFailed(at: now, &actions)
        case .appendAccepted(let at):
            now = at
            _ = window.replied()
        case .appendRefused(let message, let fenced, let at):
            now = at
            if fenced { lease.needsJoin = true }
            if let ticket = window.replied(), window.answer(ticket) != nil {
                actions.append(.appendFailed(ticket: ticket, .refused(message)))
            }
        case .appendConnectionBroke(let at):
            now = at
            connection = .closed
            lease.needsJoin = true
            if window.abandonInFlight() > 0 { joinForUnknown = true }
        case .notSent(let tickets, let at):
            now = at
            // Found closed before they went out: they wait again, in their order, for a new
            // connection (and, as after any connection, a new token first).
            if connection == .open { connection = .closed }
            lease.needsJoin = true
            window.requeue(tickets)
        case .joined(let token, let sentAt, let at):
            now = at
            joining = nil
            lease.took(token, sentAt: sentAt)
            tookJoinToken(token, &actions)
            joinForUnknown = false
            renewalDue = sentAt.adding(settings.lease / 3)
        case .tokenTaken(let token, let sentAt, let at):
            now = at
            lease.took(token, sentAt: sentAt)
            tookJoinToken(token, &actions)
            // Until its `join` is in the log too.
            lease.needsJoin = true
            renewalDue = sentAt.adding(settings.lease / 3)
        case .joinFailed(let closed, let at):
            now = at
            joinFailed(connectionClosed: closed, at: now, &actions)
        case .tick(let at):
            now = at
            if let wakeAt, wakeAt <= now { self.wakeAt = nil }
            checkLease(at: now, &actions)
        case .leaseRenewed(let generation, let sentAt, let held, let at):
            now = at
            if !lease.renewed(generation: generation, sentAt: sentAt, held: held) { endLease(at: now, &actions) }
        case .leaseRenewalFailed(let at):
            now = at
            lease.renewalFailed()
            // Tried again at the next tick: a third of a lease after this one, a second failure
            // would leave the lease past its validity before the renewal after it.
            renewalDue = now
        case .readerConnected(let last, let at):
            now = at
            if reader.connected(last: last) { caughtUp(&actions) }
        case .read(let entries, let upTo, let at):
            now = at
            for entry in entries where reader.read(entry.position) { commit(entry, at: now, &actions) }
            _ = reader.read(upTo)
            if reader.catchUpIfThere() { caughtUp(&actions) }
        case .readNothing(let at):
            now = at
            if reader.caughtUp() { caughtUp(&actions) }
        case .readFailed(let at):
            now = at
            stale(at: now, &actions)
        case .replicasBehind(let entries, let at):
            now = at
            for entry in entries where own(entry) && window.voiding(entry.ticket) {
                actions.append(.void(ticket: entry.ticket, at: entry.position))
            }
        case .voidAnswered(let ticket, let voided, let at):
            now = at
            if voided {
                if window.answer(ticket) != nil { actions.append(.appendFailed(ticket: ticket, .replicasBehind)) }
            } else {
                window.notVoided(ticket)
            }
        case .checkFailed(let loss):
            lost = true
            return [.logLost(loss)]
        }
        guard !lost else { return actions }
        pump(at: now, &actions)
        return actions
    }

    /// True for an entry this process appended (one of its tokens).
    private func own(_ entry: LogEntry) -> Bool {
        entry.node == settings.node && lease.generations[entry.token] != nil
    }

    // MARK: Reading

    private mutating func commit(_ entry: LogEntry, at now: ClusterInstant, _ actions: inout [ClusterAction]) {
        switch entry.kind {
        case .join:
            guard entry.node == settings.node else { return }
            guard let generation = lease.generations[entry.token] else {
                // The join asked for, read before the shell reported its token: the reader and
                // the append connection race to the shell. Its answers wait for the token.
                if joining != nil { joinReadBeforeItsToken = entry.token }
                return
            }
            joinRead(generation, &actions)
        case .record, .other:
            // Voided after a `WAIT` timeout: no node applies it (its proposal was answered).
            if entry.voided { return }
            var ticket: UInt64?
            if own(entry), window.answer(entry.ticket) != nil {
                if lease.state(at: now) != .lost {
                    ticket = entry.ticket
                } else {
                    endLease(at: now, &actions)
                }
            }
            guard entry.kind == .record else { return actions.append(.commit(entry, ticket: ticket, compacts: false)) }
            recordCount += 1
            actions.append(.commit(entry, ticket: ticket, compacts: recordCount % UInt64(settings.snapshotEvery) == 0))
        }
    }

    /// This node's `join` with the token of `generation` was read: the proposals sent with an
    /// earlier token that did not come before it never will.
    private mutating func joinRead(_ generation: Int, _ actions: inout [ClusterAction]) {
        for ticket in window.sent(before: generation) where window.answer(ticket) != nil {
            actions.append(.appendFailed(ticket: ticket, .connectionBroke))
        }
    }

    /// The join asked for took `token`: if its `join` was read already, it answers now.
    private mutating func tookJoinToken(_ token: String, _ actions: inout [ClusterAction]) {
        guard let early = joinReadBeforeItsToken else { return }
        joinReadBeforeItsToken = nil
        if early == token { joinRead(lease.generation, &actions) }
    }

    /// The reader became fresh: the next append connects at once.
    private mutating func caughtUp(_ actions: inout [ClusterAction]) {
        if !started {
            started = true
            actions.append(.caughtUpAtStart)
        }
        if staleReported {
            staleReported = false
            actions.append(.freshness(true))
        }
        unreachableUntil = ClusterInstant(nanoseconds: 0)
    }

    /// A read failed: the node's state may be behind until the reader caught up again.
    private mutating func stale(at now: ClusterInstant, _ actions: inout [ClusterAction]) {
        guard reader.failed(at: now) else { return }
        staleReported = true
        actions.append(.freshness(false))
    }

    // MARK: The lease

    private mutating func checkLease(at now: ClusterInstant, _ actions: inout [ClusterAction]) {
        // Woken after the lease ran out (the process was stopped, or Redis did not answer).
        if now >= lease.validUntil { endLease(at: now, &actions) }
        // Cut off from the log for a whole lease while Redis still renews it (replicas missing
        // under `waitForReplicas`): ended as if it had run out (§3.6).
        if let since = reader.cutOffSince, now.since(since) >= settings.lease { endLease(at: now, &actions) }
        if now >= renewalDue, lease.renewalSentAt == nil {
            lease.renewing(at: now)
            renewalDue = now.adding(settings.lease / 3)
            actions.append(.renewLease(token: lease.token, generation: lease.generation))
        }
    }

    /// The lease of the current generation ended: quarantine, a new token before the next
    /// append, and every proposal dropped unanswered (once per generation).
    private mutating func endLease(at now: ClusterInstant, _ actions: inout [ClusterAction]) {
        guard lease.end(at: now, quarantine: settings.quarantine) else { return }
        actions.append(.leaseLost(dropped: window.dropAll()))
    }

    // MARK: Appending

    /// Sends what waits while the window has room, or asks for what sending needs first.
    private mutating func pump(at now: ClusterInstant, _ actions: inout [ClusterAction]) {
        guard joining == nil, connection != .connecting else { return }
        if joinForUnknown {
            // A node whose lease ended takes no new token before its quarantine is over; one
            // cut off from the log tries again once its reader reads.
            if lease.quarantined(at: now) || !reader.reachable || now < unreachableUntil {
                wake(at: max(now.adding(settings.joinRetry), lease.quarantineUntil), &actions)
            } else if connection == .closed {
                connection = .connecting
                actions.append(.connect)
                return
            } else if window.inFlight.isEmpty {
                joining = .unknown
                actions.append(.join)
                return
            }
        }
        while !window.queue.isEmpty, !window.isFull {
            // Cut off from the log (§3.3): refused at once, never sent to wait for a Redis that
            // does not answer and stay unknown.
            if !reader.reachable || connection == .closed && now < unreachableUntil {
                actions.append(.appendFailed(ticket: window.refuseFirst(), .unreachable))
                continue
            }
            if lease.quarantined(at: now) {
                actions.append(.appendFailed(ticket: window.refuseFirst(), .leaseEnded))
                continue
            }
            if connection == .closed {
                connection = .connecting
                actions.append(.connect)
                return
            }
            if lease.needsJoin {
                // The join waits for its replies: only once every append in flight is answered.
                guard window.inFlight.isEmpty else { return }
                joining = .queued
                actions.append(.join)
                return
            }
            let ticket = window.sendFirst(generation: lease.generation)
            actions.append(.send(ticket: ticket, token: lease.token))
        }
    }

    private mutating func connectFailed(at now: ClusterInstant, _ actions: inout [ClusterAction]) {
        connection = .closed
        lease.needsJoin = true
        unreachableUntil = now.adding(settings.reconnectPause)
        if joinForUnknown { wake(at: now.adding(settings.joinRetry), &actions) }
    }

    private mutating func joinFailed(connectionClosed: Bool, at now: ClusterInstant, _ actions: inout [ClusterAction]) {
        let forQueued = joining == .queued
        joining = nil
        joinReadBeforeItsToken = nil
        if connectionClosed { connection = .closed }
        // The proposal the join went out for is refused (the ones behind it try again).
        if forQueued, !window.queue.isEmpty { actions.append(.appendFailed(ticket: window.refuseFirst(), .unreachable)) }
        if joinForUnknown { wake(at: now.adding(settings.joinRetry), &actions) }
    }

    private mutating func wake(at instant: ClusterInstant, _ actions: inout [ClusterAction]) {
        guard wakeAt.map({ instant < $0 }) ?? true else { return }
        wakeAt = instant
        actions.append(.wake(at: instant))
    }
}
