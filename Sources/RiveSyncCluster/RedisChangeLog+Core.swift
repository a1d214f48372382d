import Dispatch
import RiveSyncClusterCore
import RiveSyncCore
import RiveSyncRedis

/// A proposal of this node waiting for its answer: a record (answered through the sink) or a
/// `file` or `asset` entry (answered through `answer`).
struct Proposal {
    var entry: ClusterEntry
    var answer: (@Sendable (RedisChangeLog.EntryOutcome) -> Void)?
    /// When its append was sent (for the log lag).
    var sentAt: ClusterInstant?
}

/// Carrying events into the `ClusterCore` and performing its actions, on the worker's queue.
extension RedisChangeLog {
    /// Hands a proposal to the core.
    func propose(_ entry: ClusterEntry, answer: (@Sendable (EntryOutcome) -> Void)?) {
        proposals[entry.ticket] = Proposal(entry: entry, answer: answer)
        handle(.proposed(ticket: entry.ticket, now: Self.clock()))
    }

    /// Hands `events` to the core in order and performs the actions each returns, in order;
    /// `cause` is the Redis error behind an event, for the daemon's log. An event that comes
    /// while actions are performed (the worker proposes while it commits) waits until they all
    /// are, so the effects go out in the order the core decided them. The appending steps of
    /// them all go to `appendQueue` together, at the end.
    func handle(_ events: [(ClusterEvent, RedisError?)]) {
        Self.confined(to: workerQueue)
        waitingEvents += events
        guard !handling else { return }
        handling = true
        var appending: [AppendStep] = []
        while !waitingEvents.isEmpty {
            let (next, cause) = waitingEvents.removeFirst()
            if let actions = core?.handle(next) { perform(actions, cause: cause, appending: &appending) }
        }
        handling = false
        if !appending.isEmpty { enqueue(appending) }
    }

    /// Hands one event to the core (see `handle(_:)`).
    func handle(_ event: ClusterEvent, cause: RedisError? = nil) { handle([(event, cause)]) }

    /// Performs the core's actions in order: appending steps are gathered in `appending`,
    /// voids go to `sideQueue` in one script.
    private func perform(_ actions: [ClusterAction], cause: RedisError?, appending: inout [AppendStep]) {
        var voids: [(ticket: UInt64, at: LogPosition)] = []
        for action in actions {
            switch action {
            case .connect: appending.append(.connect)
            case .join: appending.append(.join)
            case .send(let ticket, let token):
                guard var proposal = proposals[ticket] else { preconditionFailure("the cluster core sent an unknown \(ticket)") }
                proposal.entry.token = token
                proposal.sentAt = Self.clock()
                proposals[ticket] = proposal
                appending.append(.send(ticket: ticket, appendCommand(proposal.entry)))
            case .renewLease(let token, let generation): renewLease(token: token, generation: generation)
            case .wake(let at):
                workerQueue?.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: at.nanoseconds)) { [self] in
                    handle(.tick(now: Self.clock()))
                }
            case .commit(let entry, let ticket, let compacts): commit(entry, ticket: ticket, compacts: compacts)
            case .appendFailed(let ticket, let failure): appendFailed(ticket, LogFailure(failure.description))
            case .leaseLost(let dropped): leaseLost(dropped)
            case .freshness(let fresh): freshness(fresh, cause: cause)
            case .caughtUpAtStart:
                signalCaughtUp()
                unpin()
            case .void(let ticket, let at): voids.append((ticket, at))
            case .logLost(let loss): logLost(loss)
            }
        }
        if !voids.isEmpty { void(voids) }
    }

    /// Carries `work` to the worker's queue (from the append and side queues, the reader's thread).
    func deliver(_ work: @escaping @Sendable () -> Void) { workerQueue?.async(execute: work) }

    // MARK: What the reader read

    /// The stream reader's report, on the worker's queue.
    func read(_ event: RedisStreamReader.Event) {
        switch event {
        case .started(let last):
            handle(.readerConnected(last: last.map(LogPosition.init), now: Self.clock()))
        case .entries(let raws, let upTo):
            var entries: [LogEntry] = []
            for raw in raws {
                do {
                    let entry = try ClusterEntry(raw)
                    let position = LogPosition(raw.id)
                    reading[position] = (raw.id, entry)
                    entries.append(entry.logEntry(at: position))
                } catch {
                    onEvent?(.invalidEntry(error.description))
                }
            }
            handle(.read(entries, upTo: LogPosition(upTo), now: Self.clock()))
            reading = [:]
        case .readNothing:
            handle(.readNothing(now: Self.clock()))
        case .failed(let error):
            metrics.redisErrors.add(1, ordering: .relaxed)
            handle(.readFailed(now: Self.clock()), cause: error)
        }
    }

    // MARK: Performing the core's actions

    /// Applies an entry read from the log on the worker, answering `ticket`'s proposal.
    private func commit(_ logEntry: LogEntry, ticket: UInt64?, compacts: Bool) {
        guard let (id, entry) = reading[logEntry.position] else { return }
        metrics.applied.add(1, ordering: .relaxed)
        let proposal = ticket.flatMap { proposals.removeValue(forKey: $0) }
        if let sentAt = proposal?.sentAt {
            metrics.lagNanoseconds.add(ClusterInstant.nanoseconds(Self.clock().since(sentAt)), ordering: .relaxed)
            metrics.lagCount.add(1, ordering: .relaxed)
        }
        switch entry.kind {
        case .record(let file, let record):
            if case .advance(_, let commands, _) = record, let highest = commands.map(\.id).max() { numbers.ensure(above: highest) }
            // In the file's restored snapshot already.
            if let upTo = skipUpTo[file], id <= upTo { return }
            compactingAt = compacts ? id : nil
            sink?.committed(file: file, record: record, ticket: ticket.map(LogTicket.init))
            compactingAt = nil
            if !pendingSnapshots.isEmpty { storeSnapshots(upTo: id) }
        case .file(let name, let header):
            if let upTo = skipUpTo[name], id <= upTo { return }
            let loaded = loadFile?(name, header) ?? false
            proposal?.answer?(.committed(applied: loaded))
        case .asset(let asset):
            addAsset?(asset)
            proposal?.answer?(.committed(applied: true))
        case .join:
            break
        }
    }

    /// `ticket`'s proposal surely is not in the log: answered `storage_failed`.
    private func appendFailed(_ ticket: UInt64, _ failure: LogFailure) {
        guard let proposal = proposals.removeValue(forKey: ticket) else { return }
        metrics.appendFailures.add(1, ordering: .relaxed)
        if case .record(let file, _) = proposal.entry.kind { sink?.appendFailed(file: file, ticket: LogTicket(ticket), failure: failure) }
        proposal.answer?(.failed(failure))
    }

    /// The lease ended: none of `dropped` is ever answered (the daemon tells the worker, whose
    /// core frees what waits on them), and the daemon drops every client.
    private func leaseLost(_ dropped: [UInt64]) {
        let failure = LogFailure(AppendFailure.leaseEnded.description)
        for ticket in dropped { proposals.removeValue(forKey: ticket)?.answer?(.failed(failure)) }
        metrics.leaseLosses.add(1, ordering: .relaxed)
        onEvent?(.leaseLost)
    }

    /// The node's state became fresh again, or may be behind (`cause`: the failed read).
    private func freshness(_ fresh: Bool, cause: RedisError?) {
        metrics.reachable.store(fresh ? 1 : 0, ordering: .relaxed)
        onEvent?(fresh ? .caughtUp : .cutOff(cause ?? .connectionLost("the cluster log could not be read")))
    }

    /// The log is not the one this node applied: it stops, and the daemon is told — after the
    /// epoch is renewed when the log went back (the first node to see it renews it, so that
    /// old cursors get snapshots).
    private func logLost(_ loss: LogLoss) {
        ticker?.cancel()
        sideQueue.async { [self] in
            if loss == .wentBack { renewEpoch() }
            deliver { [self] in onEvent?(.logLost(loss)) }
        }
    }
}

extension ClusterEntry {
    /// What the cluster core decides on: who appended it, with which token, for which proposal.
    func logEntry(at position: LogPosition) -> LogEntry {
        let kind: LogEntry.Kind
        switch self.kind {
        case .record: kind = .record
        case .file, .asset: kind = .other
        case .join: kind = .join
        }
        return LogEntry(position: position, kind: kind, node: node, token: token, ticket: ticket)
    }
}
