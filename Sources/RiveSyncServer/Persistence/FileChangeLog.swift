import RiveSyncCore
import RiveSyncJSON

/// The change log on the file journals of one worker's files (see `ChangeLog`): an `append` is
/// written to its file's journal and answered inside `append`, in the same worker step, so
/// single-node behaviour and latency are the disk's. A record the core rejects on commit is
/// taken back (`retract`: it was the last one), so a restore never meets it.
final class FileChangeLog: ChangeLog {
    private var journals: [String: FileJournal] = [:]
    /// Called after an append that still needs an fsync (policy `everysec`).
    var unsynced: () -> Void = {}
    private let log: Log

    init(log: Log) { self.log = log }

    /// Starts serving `file` from its journal (a new one, or one just restored).
    func add(_ journal: FileJournal, for file: String) { journals[file] = journal }

    func journal(of file: String) -> FileJournal? { journals[file] }

    func append(_ record: consuming JournalRecord, file: String, ticket: LogTicket, sink: any LogSink) {
        guard let journal = journals[file] else {
            sink.appendFailed(file: file, ticket: ticket, failure: LogFailure("file '\(file)' has no journal"))
            return
        }
        do {
            try journal.append(record)
        } catch {
            log(.error, "journal write failed; the change is refused", [("file", file), ("error", "\(error)")])
            sink.appendFailed(file: file, ticket: ticket, failure: LogFailure(PersistenceError.clientDescription(of: error)))
            return
        }
        if journal.policy == .everysec { unsynced() }
        sink.committed(file: file, record: record, ticket: ticket)
    }

    /// Takes back the record just appended (the core rejected it on commit; it is the last).
    func retract(file: String) {
        guard let journal = journals[file] else { return }
        do { try journal.retractLast() } catch {
            log(.error, "could not take back a journal record", [("file", file), ("error", "\(error)")])
        }
    }

    func compact(file: String, state: JSONValue, targets: [JournalSnapshot.Target]) throws(LogFailure) {
        guard let journal = journals[file] else { return }
        do { try journal.writeSnapshot(state: state, targets: targets) } catch { throw LogFailure("\(error)") }
        log(.info, "snapshot written", [("file", file), ("record", "\(journal.sequence)")])
    }

    func recordsSinceCompaction(of file: String) -> Int { journals[file]?.recordsSinceSnapshot ?? 0 }

    /// Fsyncs every journal (on stop, and once a second for `everysec`).
    func sync() {
        for (file, journal) in journals {
            do { try journal.syncIfNeeded() } catch {
                log(.error, "journal fsync failed", [("file", file), ("error", "\(error)")])
            }
        }
    }
}
