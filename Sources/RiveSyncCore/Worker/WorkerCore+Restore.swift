import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// Rebuilds a file from its log: `schema` loaded as `name`, then `snapshot` (if any), then
    /// every later record applied as a committed record without a ticket — the same code as
    /// live changes, so ids, seqs and batch history come out the same. Nothing is skipped: the
    /// first thing that does not check out throws `ReplayError` saying where. Returns the
    /// highest command counter seen (`CommandNumbering.counter(of:)`): the daemon hands the
    /// highest of every file to every worker (`ensureCommandNumbers(counterAbove:)`).
    public func restore(
        _ schema: FileSchema, as name: String, firstInstanceID: UInt64, snapshot: JournalSnapshot?,
        records: [(line: Int, record: JournalRecord)]
    ) throws(ReplayError) -> UInt64 {
        replaying = true
        defer { replaying = false }
        load(schema, as: name, firstInstanceID: firstInstanceID)
        var highestCommand: UInt64 = 0
        if let snapshot {
            do { highestCommand = try restore(snapshot, file: name, schema: schema) } catch { throw .snapshot(reason: "\(error)") }
        }
        for (line, record) in records {
            if case .advance(_, let commands, _) = record { highestCommand = max(highestCommand, highestCounter(commands.map(\.id))) }
            do { _ = try apply(record, file: name) } catch { throw .record(line: line, reason: "cannot be replayed: \(error)") }
            if case .advance(let target, _, _) = record { advanceApplied(target, own: false) }
        }
        replaying = false
        resumeTicking(file: name)
        return highestCommand
    }

    /// Restores a snapshot's state and targets; returns the highest command counter in them.
    private func restore(_ snapshot: JournalSnapshot, file name: String, schema: FileSchema) throws -> UInt64 {
        let state = try JournalCodec.decodeState(snapshot.state, schema: schema)
        files[name] = FileRuntime(schema: schema, limits: files[name]!.limits, restoring: state)
        for (target, reason) in files[name]!.restartedStateMachines.sorted(by: { $0.key < $1.key }) {
            outbox.append(
                .log(
                    .warning, "state machine restarted: its saved state does not fit the file",
                    [("file", name), ("target", target), ("reason", reason)]))
        }
        var highestCommand: UInt64 = 0
        for target in snapshot.targets {
            guard names.claimTarget(target.name, file: name) else {
                throw JournalCodec.Invalid(description: "target '\(target.name)' is taken")
            }
            outbox.append(.targetNames(.claim(target.name, file: name)))
            var record = TargetRecord(
                file: name, runtime: files.handle(of: name)!, manual: target.manual, rate: target.rate,
                settled: files[name]!.isSettled(target.name))
            record.drivesTime = !settings.sharesManualAdvances
            let runtime = files[name]!
            let freed = Dictionary(target.freedInstances.map { ($0.instance, $0.viewModel) }) { _, last in last }
            let viewModelOf = { (id: InstanceID) in runtime.store[id]?.viewModel ?? freed[id] }
            for batch in target.history {
                let decoded: ChangeBatch
                do { decoded = try HistoryEntry.decode(batch, target: target.name, schema: runtime.schema, viewModelOf: viewModelOf) } catch
                {
                    // Only a resume reads kept batches: the state is whole without them. (A
                    // snapshot written before `freedInstances` may set an instance freed since.)
                    // Its command numbers still count: later commands are numbered above them.
                    if let commands = try? HistoryEntry.commands(in: batch) {
                        highestCommand = max(highestCommand, highestCounter(commands))
                    }
                    record.history = BatchHistory()
                    outbox.append(
                        .log(
                            .warning, "a kept batch of the snapshot cannot be read; the target keeps the later ones",
                            [("file", name), ("target", target.name), ("reason", "\(error)")]))
                    continue
                }
                highestCommand = max(highestCommand, highestCounter(decoded.applied))
                // Authors recorded before `authors` was turned off are not sent.
                let sent = settings.recordsAuthors ? batch : .object((batch.objectValue ?? []).filter { $0.0 != "authors" })
                record.history.append(
                    HistoryEntry(decoded, frame: Frame(sent, headroom: settings.frameHeadroom), viewModelOf: viewModelOf),
                    limit: settings.limits.historyBatches)
            }
            targets[target.name] = record
        }
        let retired = files[name]!.retiredTargets.keys.sorted()
        names.rememberRetired(retired, file: name)
        outbox.append(.targetNames(.rememberRetired(retired, file: name)))
        return highestCommand
    }

    /// The highest counter of `numbers` (0 for none), whichever worker numbered them.
    func highestCounter(_ numbers: [UInt64]) -> UInt64 { numbers.map { numbering.counter(of: $0) }.max() ?? 0 }

    /// Later command numbers of this worker have a counter above `highest` (the daemon's call
    /// after every file is restored, with the highest counter any restore returned).
    public func ensureCommandNumbers(counterAbove highest: UInt64) { numbering.ensure(counterAbove: highest) }
}

/// Why a file's log could not be replayed.
public enum ReplayError: Error, Sendable, Equatable {
    /// The snapshot does not check out.
    case snapshot(reason: String)
    /// The record at `line` of the log does not apply.
    case record(line: Int, reason: String)
}
