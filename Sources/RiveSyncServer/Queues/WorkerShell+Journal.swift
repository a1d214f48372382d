import Dispatch
import RiveSyncCore
import RiveSyncModel
import RiveSyncProtocol

extension WorkerShell {
    /// `everysec`: fsync the journals once a second while there is something to sync.
    func scheduleSync() {
        guard !syncScheduled else { return }
        syncScheduled = true
        host.schedule(at: context.clock.now() + 1_000_000_000) { [self] in
            syncScheduled = false
            syncJournals()
        }
    }

    /// Fsyncs every journal of this worker (on stop, and once a second for `everysec`).
    func syncJournals() { fileLog?.sync() }

    /// Rebuilds a file from its journal (see `WorkerCore.restore`). Anything that does not
    /// check out throws `PersistenceError.corrupt` with the file (and line); nothing is
    /// skipped. Returns the highest command counter seen (see `WorkerCore.restore`).
    func restore(_ recovered: FileJournal.Recovered, number: UInt64) throws -> UInt64 {
        defer { perform(core.takeActions()) }
        let name = recovered.header.name
        let schema: FileSchema
        do { schema = try FileSchema(json: recovered.header.schema) } catch {
            throw PersistenceError.corrupt(
                path: recovered.journal.directory + "/file.json", line: 1, reason: "schema: \(WireError(error).message)")
        }
        let highestCommand: UInt64
        do {
            highestCommand = try core.restore(
                schema, as: name, firstInstanceID: number << Directory.fileIDShift | 1, snapshot: recovered.snapshot,
                records: recovered.records)
        } catch .snapshot(let reason) {
            throw PersistenceError.corrupt(path: recovered.journal.directory + "/snapshot.json", line: 1, reason: reason)
        } catch .record(let line, let reason) {
            throw PersistenceError.corrupt(path: recovered.journal.logPath, line: line, reason: reason)
        }
        perform(core.takeActions())
        if let conflict = nameConflicts.first {
            throw PersistenceError.corrupt(
                path: recovered.journal.directory, line: 1, reason: "target '\(conflict.name)' is taken by another file")
        }
        fileLog?.add(recovered.journal, for: name)
        if recovered.header.format != FileJournal.format {
            // A journal of the first format: compact it into a snapshot and a segmented log.
            core.writeSnapshot(name)
            try recovered.journal.upgradeHeader(recovered.header)
        }
        return highestCommand
    }
}
