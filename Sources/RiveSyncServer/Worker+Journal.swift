import Dispatch
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

/// What a proposal in flight answers once the change log has.
enum Waiter {
    /// A client's request: its reply (or its error) goes to the session.
    case request(RequestWaiter)
    /// An advance's commands (their senders wait in the target's `pending`); `manual`: the
    /// `advance` request that asked for it.
    case advance(target: String, commands: [QueuedCommand], manual: (session: SessionID, id: JSONValue?)?)
    /// The daemon itself (configuration loading), answered in the same step.
    case local((Result<Applied, WireError>) -> Void)
}

/// A request waiting for its record.
struct RequestWaiter {
    var session: SessionID
    var id: JSONValue?
    var body: ClientRequest
    var grants: Grants
    var reply: Reply
    /// The target name claimed for the record, released if it does not apply.
    var reserved: String?

    enum Reply {
        /// `instance`, after publishing it first when `publish` is given.
        case instance(publish: String?, maxTargets: Int)
        /// `instance`, once the instance it names is published.
        case published(InstanceID)
        case target
        case targetDeleted
    }
}

/// What applying a committed record did.
enum Applied {
    case instance(InstanceID, file: String)
    case target(String)
    case deleted(target: String, freed: [InstanceID])
    case advanced(target: String)
}

extension Worker: LogSink {
    /// The error a request gets when its change cannot be made durable.
    static func storageFailed(_ failure: LogFailure) -> WireError {
        WireError(code: .storageFailed, message: "the change could not be written to disk: \(failure)")
    }

    /// Proposes a record for `file`; `waiter` is answered once the log has (with the file
    /// journal: before this returns).
    func propose(_ record: JournalRecord, file: String, _ waiter: Waiter) {
        lastTicket += 1
        let ticket = LogTicket(lastTicket)
        waiting[ticket] = waiter
        context.metrics.proposalsWaiting.add(1, ordering: .relaxed)
        if case .advance(let target, _, _) = waiter { targets[target]?.advancesInFlight += 1 }
        log.propose(record, file: file, ticket: ticket, sink: self)
    }

    /// Proposes a record and returns what applying it did: for the daemon's own changes
    /// (configuration), which need the log to answer in the same step, as the file journal does.
    func commitNow(_ record: JournalRecord, file: String) throws(WireError) -> Applied {
        var outcome: Result<Applied, WireError>?
        propose(record, file: file, .local { outcome = $0 })
        guard let outcome else { throw WireError.internalError("the change log did not answer at once") }
        return try outcome.get()
    }

    func committed(file: String, record: JournalRecord, ticket: LogTicket?) -> CommitOutcome {
        let waiter = ticket.flatMap { waiting.removeValue(forKey: $0) }
        if waiter != nil { context.metrics.proposalsWaiting.add(-1, ordering: .relaxed) }
        let result: Result<Applied, WireError>
        do { result = .success(try apply(record, file: file)) } catch { result = .failure(error) }
        if let waiter { answer(waiter, with: result) }
        guard case .success = result else { return .rejected }
        if ticket == nil, case .advance(let target, _) = record { followAdvance(of: target) }
        snapshotIfDue(file)
        return .applied
    }

    func appendFailed(file: String, ticket: LogTicket, failure: LogFailure) {
        guard let waiter = waiting.removeValue(forKey: ticket) else { return }
        context.metrics.proposalsWaiting.add(-1, ordering: .relaxed)
        answer(waiter, with: .failure(Self.storageFailed(failure)))
    }

    /// Compacts the log once it has enough records (after the change they describe).
    func snapshotIfDue(_ file: String) {
        guard !replaying, log.recordsSinceCompaction(of: file) >= context.configuration.snapshotEvery else { return }
        writeSnapshot(file)
    }

    /// `everysec`: fsync the journals once a second while there is something to sync.
    func scheduleSync() {
        guard !syncScheduled else { return }
        syncScheduled = true
        queue.asyncAfter(deadline: .now() + .seconds(1)) { [self] in
            syncScheduled = false
            syncJournals()
        }
    }

    /// Fsyncs every journal of this worker (on stop, and once a second for `everysec`).
    func syncJournals() { fileLog?.sync() }

    /// Compacts a file's log: its whole state, its targets' modes and their recent batches.
    func writeSnapshot(_ file: String) {
        guard let runtime = files[file] else { return }
        let names = targets.keys.filter { targets[$0]!.file == file }.sorted()
        let snapshotTargets = names.map { name in
            let record = targets[name]!
            return JournalSnapshot.Target(
                name: name, manual: record.manual, rate: record.rate,
                history: record.history.map { entry in
                    ServerMessage.batch(ServerMessage.Batch(entry.batch, epoch: epoch(of: name), effects: entry.batch.effects)).jsonValue
                })
        }
        do {
            try log.compact(file: file, state: JournalCodec.encode(runtime.persistentState), targets: snapshotTargets)
        } catch {
            context.log(.error, "snapshot failed; the journal keeps growing", [("file", file), ("error", "\(error)")])
        }
    }

    /// Rebuilds a file from its journal: the snapshot, then every later record applied as a
    /// committed record without a ticket — the same code as live changes, so ids, seqs and
    /// batch history come out the same. Anything that does not check out throws
    /// `PersistenceError.corrupt` with the file (and line); nothing is skipped. Returns the
    /// highest command number seen.
    func restore(_ recovered: FileJournal.Recovered, number: UInt64) throws -> UInt64 {
        replaying = true
        defer { replaying = false }
        let name = recovered.header.name
        let headerPath = recovered.journal.directory + "/file.json"
        let schema: FileSchema
        do { schema = try FileSchema(json: recovered.header.schema) } catch {
            throw PersistenceError.corrupt(path: headerPath, line: 1, reason: "schema: \(WireError(error).message)")
        }
        load(schema, as: name, number: number)
        var highestCommand: UInt64 = 0
        if let snapshot = recovered.snapshot {
            do {
                highestCommand = try restore(snapshot, file: name, schema: schema)
            } catch {
                throw PersistenceError.corrupt(path: recovered.journal.directory + "/snapshot.json", line: 1, reason: "\(error)")
            }
        }
        for (line, record) in recovered.records {
            if case .advance(_, let commands) = record { highestCommand = max(highestCommand, commands.map(\.id).max() ?? 0) }
            do { _ = try apply(record, file: name) } catch {
                throw PersistenceError.corrupt(path: recovered.journal.logPath, line: line, reason: "cannot be replayed: \(error)")
            }
        }
        fileLog?.add(recovered.journal, for: name)
        if recovered.header.format != FileJournal.format {
            // A journal of the first format: compact it into a snapshot and a segmented log.
            writeSnapshot(name)
            try recovered.journal.upgradeHeader(recovered.header)
        }
        return highestCommand
    }

    /// Restores a snapshot's state and targets; returns the highest command number in them.
    private func restore(_ snapshot: JournalSnapshot, file name: String, schema: FileSchema) throws -> UInt64 {
        let state = try JournalCodec.decodeState(snapshot.state, schema: schema)
        files[name] = FileRuntime(schema: schema, limits: files[name]!.limits, restoring: state)
        var highestCommand: UInt64 = 0
        for target in snapshot.targets {
            guard context.directory.claimTarget(target.name, file: name) else {
                throw JournalCodec.Invalid(description: "target '\(target.name)' is taken")
            }
            var record = TargetRecord(file: name, manual: target.manual, rate: target.rate)
            for batch in target.history {
                let decoded = try decodeHistoryBatch(batch, target: target.name, file: name)
                highestCommand = max(highestCommand, decoded.applied.max() ?? 0)
                record.history.append(HistoryEntry(batch: decoded, payload: Payload(bytes: batch.serialized(), isText: true)))
            }
            targets[target.name] = record
        }
        context.directory.rememberRetired(Array(files[name]!.retiredTargets.keys), file: name)
        return highestCommand
    }

    /// A batch message of a snapshot's history, read strictly.
    private func decodeHistoryBatch(_ json: JSONValue, target: String, file: String) throws -> ChangeBatch {
        let runtime = files[file]!
        let fields = JournalCodec.Fields(json: json, what: "history batch")
        let effects = try fields.array("effects").map { effect in
            try StateCodec.decodeEffect(effect, schema: runtime.schema) { runtime.store[$0]?.viewModel }
        }
        let seq = try fields.int("seq")
        let applied = try fields.array("commands").map { (number) throws(JournalCodec.Invalid) -> UInt64 in
            guard let value = number.intValue, value > 0 else {
                throw JournalCodec.Invalid(description: "history command \(number.jsonText)")
            }
            return UInt64(value)
        }
        guard seq > 0 else { throw JournalCodec.Invalid(description: "history seq \(seq)") }
        return ChangeBatch(target: target, seq: UInt64(seq), effects: effects, applied: applied, rejected: [])
    }
}
