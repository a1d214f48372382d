import Dispatch
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

extension Worker {
    /// The error commands get when their change cannot be made durable.
    static func storageFailed(_ error: PersistenceError) -> WireError {
        WireError(code: .storageFailed, message: "the change could not be written to disk: \(error)")
    }

    /// Writes a record to a file's journal before the change it describes is made. Without a
    /// state directory, or while replaying, this does nothing.
    func journal(_ file: String, _ record: JournalRecord) throws(WireError) {
        guard !replaying, let journal = journals[file] else { return }
        do {
            try journal.append(record)
        } catch {
            context.log(.error, "journal write failed; the change is refused", [("file", file), ("error", "\(error)")])
            throw Self.storageFailed(error)
        }
        if journal.policy == .everysec { scheduleSync() }
    }

    /// Compacts the journal once it has enough records (after the change they describe).
    func snapshotIfDue(_ file: String) {
        guard !replaying, let journal = journals[file], journal.recordsSinceSnapshot >= context.configuration.snapshotEvery else { return }
        writeSnapshot(file)
    }

    /// Makes a mutation of a file's runtime durable: journals the record, then mutates the
    /// runtime in place. The model's mutations check everything before they change anything,
    /// so one that throws left the runtime as it was, and its record is taken back. (No copy
    /// of the file's state: O(1) in the number of instances.) A mutation that adds or removes
    /// a target leaves `snapshot` false and calls `snapshotIfDue` once `targets` matches the
    /// runtime again (a snapshot holds both).
    @discardableResult
    func durably<T>(_ file: String, _ record: JournalRecord, snapshot: Bool = true,
                    _ mutation: (inout FileRuntime) throws -> T) throws(WireError) -> T {
        _ = try runtime(file)
        try journal(file, record)
        let result: T
        do {
            result = try mutation(&files[file]!)
        } catch {
            if !replaying, let journal = journals[file] {
                do { try journal.retractLast() } catch let failure {
                    context.log(.error, "could not take back a journal record", [("file", file), ("error", "\(failure)")])
                }
            }
            throw WireError(error)
        }
        if snapshot { snapshotIfDue(file) }
        return result
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
    func syncJournals() {
        for (file, journal) in journals {
            do { try journal.syncIfNeeded() } catch {
                context.log(.error, "journal fsync failed", [("file", file), ("error", "\(error)")])
            }
        }
    }

    /// Compacts a file's journal: its whole state, its targets' modes and their recent batches.
    func writeSnapshot(_ file: String) {
        guard let journal = journals[file], let runtime = files[file] else { return }
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
            try journal.writeSnapshot(state: JournalCodec.encode(runtime.persistentState), targets: snapshotTargets)
            context.log(.info, "snapshot written", [("file", file), ("record", "\(journal.sequence)")])
        } catch {
            context.log(.error, "snapshot failed; the journal keeps growing", [("file", file), ("error", "\(error)")])
        }
    }

    /// Rebuilds a file from its journal: the snapshot, then every later record replayed
    /// through the same code as live requests (so ids, seqs and batch history come out the
    /// same). Anything that does not check out throws `PersistenceError.corrupt` with the file
    /// (and line); nothing is skipped. Returns the highest command number seen.
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
            do {
                highestCommand = max(highestCommand, try replay(record, file: name))
            } catch {
                throw PersistenceError.corrupt(path: recovered.journal.logPath, line: line, reason: "cannot be replayed: \(error)")
            }
        }
        journals[name] = recovered.journal
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

    /// Replays one record of the log; returns the highest command number in it.
    private func replay(_ record: JournalRecord, file name: String) throws -> UInt64 {
        switch record {
        case .createInstance(let source):
            _ = try files[name]!.createInstance(source)
        case .createStateMachine(let stateMachine):
            _ = try createStateMachine(stateMachine, grants: .everything)
        case .publish(let instance, let target):
            try publish(instance, as: target, file: name)
        case .deleteTarget(let target):
            _ = try deleteTarget(target)
        case .advance(let target, let commands):
            guard targets[target]?.file == name else { throw StateMachineError.unknownTarget(target) }
            for command in commands { try files[name]!.enqueue(command, on: target) }
            runAdvance(target)
            return commands.map(\.id).max() ?? 0
        }
        return 0
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
            guard let value = number.intValue, value > 0 else { throw JournalCodec.Invalid(description: "history command \(number.jsonText)") }
            return UInt64(value)
        }
        guard seq > 0 else { throw JournalCodec.Invalid(description: "history seq \(seq)") }
        return ChangeBatch(target: target, seq: UInt64(seq), effects: effects, applied: applied, rejected: [])
    }
}
