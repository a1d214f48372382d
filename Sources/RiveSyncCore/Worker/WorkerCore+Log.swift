import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// What a proposal in flight answers once the log has.
enum Waiter {
    /// A client's request: its reply (or its error) goes to the connection. Boxed: a waiter
    /// held inline with its grants' existential could only be read by copying it whole (an
    /// advance's waiter, the usual one, was copied twice when its answer came).
    indirect case request(RequestWaiter)
    /// An advance's commands (their senders wait in the target's `pending`); `record`: the
    /// target's record when it was proposed; `manual`: the `advance` request that asked for it.
    case advance(target: String, record: WorkerCore.TargetHandle, commands: QueuedCommands, manual: ManualAdvance?)
    /// The daemon itself (configuration loading): the outcome is kept for `outcome(of:)`;
    /// `reserved`: the target name claimed for it, given back if the record does not apply.
    case own(reserved: String?)

    /// The record of an advance's target, as proposed (read without copying the waiter).
    var advancedRecord: WorkerCore.TargetHandle? {
        guard case .advance(_, let record, _, _) = self else { return nil }
        return record
    }
}

/// A request waiting for its record.
struct RequestWaiter {
    var connection: ConnectionID
    var id: JSONValue?
    var body: ClientRequest
    var grants: any RequestGrants
    var reply: Reply
    /// The target name claimed for the record, released if it does not apply.
    var reserved: String?

    enum Reply {
        /// `instance`, after publishing it first when `publish` is given (its name reserved
        /// with the request).
        case instance(publish: String?)
        /// `instance`, once the instance it names is published.
        case published(InstanceID)
        case target
        case targetDeleted
    }
}

/// What applying a committed record did.
public enum Applied: Sendable {
    case instance(InstanceID, file: String)
    case target(String)
    case deleted(target: String, freed: [InstanceID])
    case advanced(AppliedAdvance)
}

/// What applying an advance did to its target.
public struct AppliedAdvance: Sendable {
    public var target: String
    /// Whether the target's state machine needs no further advance, after this one.
    public var settled: Bool
    /// The target's record in the worker's `targets`.
    var record: WorkerCore.TargetHandle
}

extension WorkerCore {
    /// The error a request gets when its change cannot be made durable.
    public static func storageFailed(_ failure: LogFailure) -> WireError {
        WireError(code: .storageFailed, message: "the change could not be written to disk: \(failure)")
    }

    /// Proposes a record for `file`: an `append` action; `waiter` is answered once the log's
    /// answer comes back as an event (`committed` or `appendFailed`). An advance's waiter is
    /// counted in its target's `advancesInFlight` by `runAdvance`, which has the record at hand.
    /// The record and the waiter are taken, not copied.
    @discardableResult
    func propose(_ record: consuming JournalRecord, file: String, _ waiter: consuming Waiter, ticket given: LogTicket? = nil) -> LogTicket {
        let ticket = given ?? nextTicket()
        waiting.wait(waiter, on: ticket)
        waitingChange.proposals += 1
        outbox.append(.append(record, file: file, ticket: ticket))
        return ticket
    }

    /// The daemon's own change (configuration): proposes `record` like a client's; once the
    /// shell has performed the actions (`takeActions`) and the log has answered,
    /// `outcome(of:)` tells what applying it did.
    public func proposeOwn(_ record: JournalRecord, file: String) -> LogTicket { propose(record, file: file, .own(reserved: nil)) }

    /// A fresh ticket (see `Proposals`).
    func nextTicket() -> LogTicket { waiting.newTicket() }

    /// What applying the record of the daemon's own proposal `ticket` did (then forgotten):
    /// its error if it did not apply, `internal_error` if the log has not answered yet (a log
    /// that answers later cannot take the daemon's own changes).
    public func outcome(of ticket: LogTicket) throws(WireError) -> Applied {
        guard let outcome = ownOutcomes.removeValue(forKey: ticket) else {
            throw WireError.internalError("the change log did not answer at once")
        }
        return try outcome.get()
    }

    /// A committed record (`WorkerEvent.committed`): applies it and answers its waiter.
    func committed(file: String, record: JournalRecord, ticket: LogTicket?, recordsSinceCompaction: Int) {
        let waiter = ticket.flatMap { waiting.remove($0) }
        if waiter != nil { waitingChange.proposals -= 1 }
        let start = environment.now()
        let result: Result<Applied, WireError>
        // An advance this worker proposed names its record (the waiter's): no name hashed.
        do { result = .success(try apply(record, file: file, proposed: waiter?.advancedRecord)) } catch { result = .failure(error) }
        if case .failure = result { outbox.append(.retract(file: file)) }
        if let waiter = consume waiter, let ticket { answer(waiter, ticket: ticket, with: result) }
        guard case .success(let applied) = result else { return }
        // The record matched where it lies (a tuple of it and the result copied it).
        switch record {
        case .advance(let target, let commands, _):
            guard case .advanced(let advance) = applied else { break }
            if ticket != nil { count(.advanceDuration(nanoseconds: environment.now() &- start)) }
            // Another node's numbers: later ones of this worker go above them (CLUSTER.md §2.5).
            if ticket == nil { numbering.ensure(counterAbove: highestCounter(commands.map(\.id))) }
            // Answering the waiter removed no record: the handle `apply` found holds.
            advanceApplied(target, at: advance.record, settled: advance.settled, own: ticket != nil)
            if ticket == nil { followAdvance(of: target) }
        case .createStateMachine:
            guard case .target(let target) = applied else { break }
            // A new state machine may need advances before it settles (its entry state).
            advanceApplied(target, own: ticket != nil)
        default:
            break
        }
        snapshotIfDue(file, recordsSinceCompaction: recordsSinceCompaction)
    }

    /// Another node's advance of a manual target was just applied: what this worker queued on
    /// it follows at once (see `WorkerEnvironment.sharesManualAdvances`).
    func followAdvance(of target: String) {
        guard settings.sharesManualAdvances, let record = targets[target], record.manual, !record.queued.isEmpty else { return }
        runAdvance(target)
    }

    /// An append the log could not make durable (`WorkerEvent.appendFailed`).
    func appendFailed(file: String, ticket: LogTicket, failure: LogFailure) {
        guard let waiter = waiting.remove(ticket) else { return }
        waitingChange.proposals -= 1
        answer(waiter, ticket: ticket, with: .failure(Self.storageFailed(failure)))
    }

    /// Frees the waiters of every proposal the log will not answer (`proposalsDropped`). A
    /// record among them already in the log still applies (committed without a ticket, like
    /// another node's) and acks nobody: the pending acks of a dropped advance go too. A target
    /// name claimed for a dropped proposal is released; if its record commits, applying it
    /// claims the name again, as on every other node.
    func dropUnansweredProposals() {
        let dropped = waiting.removeAll()
        waitingChange.proposals -= dropped.count
        for waiter in dropped {
            switch waiter {
            case .request(let request):
                if let name = request.reserved, reservedTargets.remove(name) != nil { outbox.append(.targetNames(.release(name))) }
            case .advance(let target, _, let commands, _):
                if targets[target] != nil { waitingChange.commands -= commands.count }
                targets[target]?.advancesInFlight -= 1
                for command in commands { targets[target]?.pending[command.id] = nil }
            case .own(let reserved):
                if let name = reserved, reservedTargets.remove(name) != nil { outbox.append(.targetNames(.release(name))) }
            }
        }
    }

    /// Compacts the log once it has enough records (after the change they describe).
    func snapshotIfDue(_ file: String, recordsSinceCompaction: Int) {
        guard !replaying, recordsSinceCompaction >= settings.snapshotEvery else { return }
        guard compactsEveryFile else { return writeSnapshot(file) }
        for name in files.keys.sorted() { writeSnapshot(name) }
    }

    /// Compacts a file's log (a `compact` action): its whole state, its targets' modes and their
    /// recent batches.
    public func writeSnapshot(_ file: String) {
        guard let runtime = files[file] else { return }
        let names = targets.keys.filter { targets[$0]!.file == file }.sorted()
        let snapshotTargets = names.map { name in
            let record = targets[name]!
            return JournalSnapshot.Target(
                name: name, manual: record.manual, rate: record.rate, history: snapshotHistory(of: name),
                freedInstances: freedInstances(of: name, store: runtime.store))
        }
        outbox.append(.compact(file: file, state: JournalCodec.encode(runtime.persistentState), targets: snapshotTargets))
    }

    /// The instances `target`'s kept batches set that `store` no longer holds, with their view
    /// models (a restore reads those batches back by them), in id order.
    private func freedInstances(of target: String, store: InstanceStore) -> [JournalSnapshot.FreedInstance] {
        var freed: [InstanceID: String] = [:]
        for entry in targets[target]!.history.ordered {
            for set in entry.setViewModels where store[set.instance] == nil { freed[set.instance] = set.viewModel }
        }
        return freed.sorted { $0.key < $1.key }.map { JournalSnapshot.FreedInstance(instance: $0.key, viewModel: $0.value) }
    }

    /// A target's kept batches as a snapshot keeps them: each frame's message, as sent. (Frames
    /// are this worker's own JSON; should one not read back, only the batches after it are
    /// kept, so the history stays gapless.)
    private func snapshotHistory(of target: String) -> [JSONValue] {
        var history: [JSONValue] = []
        for entry in targets[target]!.history.ordered {
            do { history.append(try JSONParser(maxDepth: .max, maxBytes: .max).parse(entry.frame.bytes)) } catch {
                let about = [("target", target), ("reason", "\(error)")]
                logLine(.warning, "a kept batch is not JSON; the snapshot keeps the later ones", about)
                history = []
            }
        }
        return history
    }
}
