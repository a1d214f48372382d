import RiveSyncJSON

/// A change log in memory: every append commits at once, in the same step. The daemon uses it
/// without a state directory (nothing survives a restart, `retains` false); tests use it
/// retaining, to replay the records into another core or to make an append fail.
public final class MemoryChangeLog: ChangeLog {
    /// Whether committed records are kept (`records`) until a compaction.
    public let retains: Bool
    /// Committed records per file since the last compaction, oldest first (when retaining).
    public private(set) var records: [String: [JournalRecord]] = [:]
    /// The last compaction of each file.
    public private(set) var snapshots: [String: JournalSnapshot] = [:]
    /// When set, the next append fails with it (then it is cleared).
    public var failNext: LogFailure?
    private var counts: [String: UInt64] = [:]

    public init(retains: Bool) { self.retains = retains }

    public func append(_ record: consuming JournalRecord, file: String, ticket: LogTicket, sink: any LogSink) {
        if let failure = failNext {
            failNext = nil
            sink.appendFailed(file: file, ticket: ticket, failure: failure)
            return
        }
        // Counted only where a compaction reads it (a daemon's log keeps nothing: no lookup).
        if retains {
            records[file, default: []].append(copy record)
            counts[file, default: 0] += 1
        }
        sink.committed(file: file, record: record, ticket: ticket)
    }

    public func retract(file: String) {
        guard retains, records[file]?.isEmpty == false else { return }
        records[file]!.removeLast()
        counts[file]! -= 1
    }

    public func compact(file: String, state: JSONValue, targets: [JournalSnapshot.Target]) throws(LogFailure) {
        guard retains else { return }
        snapshots[file] = JournalSnapshot(upTo: counts[file, default: 0], state: state, targets: targets)
        records[file] = []
    }

    public func recordsSinceCompaction(of file: String) -> Int { retains ? records[file]?.count ?? 0 : 0 }
}
