import Dispatch
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

extension Worker {
    /// The error commands get when their change cannot be made durable.
    static func storageFailed(_ error: PersistenceError) -> WireError {
        WireError(code: "storage_failed", message: "the change could not be written to disk: \(error)")
    }

    /// Writes a record to a file's journal before the change it describes is made. Without a
    /// state directory, or while replaying, this does nothing.
    func journal(_ file: String, _ record: JSONValue) throws(WireError) {
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

    /// A journal record for a creation request.
    static func record(_ request: ClientRequest) -> JSONValue {
        .object([("t", .string(request.type)), ("request", Request(id: nil, body: request).jsonValue)])
    }

    /// Makes a mutation of a file's runtime durable: journals the record, then mutates the
    /// runtime in place. The model's mutations check everything before they change anything,
    /// so one that throws left the runtime as it was, and its record is taken back. (No copy
    /// of the file's state: O(1) in the number of instances.) A mutation that adds or removes
    /// a target leaves `snapshot` false and calls `snapshotIfDue` once `targets` matches the
    /// runtime again (a snapshot holds both).
    @discardableResult
    func durably<T>(_ file: String, _ record: JSONValue, snapshot: Bool = true,
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
        let snapshot: JSONValue = .object([
            ("state", JournalCodec.encode(runtime.persistentState)),
            ("targets", .array(names.map { name in
                let record = targets[name]!
                return .object([
                    ("name", .string(name)), ("manual", .bool(record.manual)), ("rate", .number(record.rate)),
                    ("history", .array(record.history.map { entry in
                        ServerMessage.batch(entry.batch, epoch: epoch(of: name), effects: entry.batch.effects, commands: entry.batch.applied)
                    })),
                ])
            })),
        ])
        do {
            try journal.writeSnapshot(snapshot)
            context.log(.info, "snapshot written", [("file", file), ("record", "\(journal.sequence)")])
        } catch {
            context.log(.error, "snapshot failed; the journal keeps growing", [("file", file), ("error", "\(error)")])
        }
    }

    /// Rebuilds a file from its journal: the snapshot, then every later record replayed
    /// through the same code as live requests (so ids, seqs and batch history come out the
    /// same). Returns the highest command number seen.
    func restore(_ recovered: FileJournal.Recovered, number: UInt64) throws -> UInt64 {
        replaying = true
        defer { replaying = false }
        let name = recovered.header["name"]?.stringValue ?? ""
        let schema = try FileSchema(json: recovered.header["schema"] ?? .null)
        load(schema, as: name, number: number)
        var highestCommand: UInt64 = 0
        if let snapshot = recovered.snapshot {
            let state = try JournalCodec.decodeState(snapshot["state"] ?? .null, schema: schema)
            files[name] = FileRuntime(schema: schema, limits: files[name]!.limits, restoring: state)
            for target in snapshot["targets"]?.arrayValue ?? [] {
                guard let targetName = target["name"]?.stringValue, context.directory.claimTarget(targetName, file: name) else { continue }
                var record = TargetRecord(file: name, manual: target["manual"]?.boolValue ?? false, rate: target["rate"]?.numberValue ?? 60)
                for batch in target["history"]?.arrayValue ?? [] {
                    let decoded = try decodeHistoryBatch(batch, target: targetName, file: name)
                    highestCommand = max(highestCommand, decoded.applied.max() ?? 0)
                    record.history.append(HistoryEntry(batch: decoded, payload: ServerContext.payload(batch)))
                }
                targets[targetName] = record
            }
            context.directory.rememberRetired(Array(files[name]!.retiredTargets.keys), file: name)
        }
        for (line, record) in recovered.records {
            do {
                highestCommand = max(highestCommand, try replay(record, file: name))
            } catch {
                throw PersistenceError.corrupt(path: recovered.journal.logPath, line: line, reason: "cannot be replayed: \(error)")
            }
        }
        journals[name] = recovered.journal
        if recovered.header["format"]?.intValue != FileJournal.format {
            // A journal of the first format: compact it into a snapshot and a segmented log.
            writeSnapshot(name)
            try recovered.journal.upgradeHeader(recovered.header)
        }
        return highestCommand
    }

    /// Replays one record of the log; returns the highest command number in it.
    private func replay(_ record: JSONValue, file name: String) throws -> UInt64 {
        let body = Fields(record)
        switch body.type {
        case "createInstance", "createStateMachine", "publish", "deleteTarget":
            try apply(try ClientRequest(record["request"] ?? .null), file: name)
            return 0
        case "advance":
            let target = body.string("target")
            var highestCommand: UInt64 = 0
            for command in record["commands"]?.arrayValue ?? [] {
                let number = UInt64(command["n"]?.intValue ?? 0)
                highestCommand = max(highestCommand, number)
                try files[name]!.enqueue(QueuedCommand(id: number, command: try JournalCodec.decodeCommand(command["c"] ?? .null)), on: target)
            }
            runAdvance(target)
            return highestCommand
        default:
            throw JournalCodec.Invalid(description: "record type '\(body.type)'")
        }
    }

    /// Replays a creation request of the journal.
    private func apply(_ request: ClientRequest, file: String) throws {
        switch request {
        case .createInstance(_, let source, _):
            _ = try files[file]!.createInstance(source)
        case .createStateMachine(let stateMachine):
            _ = try createStateMachine(stateMachine, grants: .everything)
        case .publish(let instance, let name):
            try publish(instance, as: name, file: file)
        case .deleteTarget(let target):
            _ = try deleteTarget(target)
        default:
            break
        }
    }

    private func decodeHistoryBatch(_ json: JSONValue, target: String, file: String) throws -> ChangeBatch {
        let runtime = files[file]!
        var effects: [Effect] = []
        for effect in json["effects"]?.arrayValue ?? [] {
            effects.append(try StateCodec.decodeEffect(effect, schema: runtime.schema) { runtime.store[$0]?.viewModel })
        }
        return ChangeBatch(
            target: target, seq: UInt64(json["seq"]?.intValue ?? 0), effects: effects,
            applied: (json["commands"]?.arrayValue ?? []).compactMap { $0.intValue.map(UInt64.init) }, rejected: [])
    }

    private struct Fields {
        let json: JSONValue
        init(_ json: JSONValue) { self.json = json }
        var type: String { json["t"]?.stringValue ?? "" }
        func string(_ key: String) -> String { json[key]?.stringValue ?? "" }
    }
}
