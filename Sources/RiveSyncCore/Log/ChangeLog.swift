import RiveSyncJSON

/// The change log: the one ordered, durable history of every file's changes, and the seam
/// between the core and what stores it.
///
/// The core never changes a file's state on its own, and never calls the log. It emits
/// `WorkerAction.append(record, file:, ticket:)`; the shell performs it on its log, which
/// appends the record after everything appended for that file before and answers, in log
/// order per file, through the shell's `LogSink`; the shell hands each answer to the core as
/// an event:
/// - `WorkerEvent.committed(file:record:ticket:recordsSinceCompaction:)` once the record is
///   durable (as durable as the log's policy says; the file journal's `always` means fsynced).
///   Only then does the core apply it. Applying is deterministic given the file's state and
///   the record — no clock, no grants, no node-local data — so every replica that applies the
///   same records in the same order reaches the same instance ids, seqs, batches and digests.
///   A record that does not apply makes the core emit `retract(file:)`.
/// - `WorkerEvent.appendFailed(file:ticket:failure:)` when it could not be made durable:
///   nothing applies, and whoever waits on the ticket gets `storage_failed`.
///
/// A record committed without a ticket (in a cluster, another node's record) applies the same
/// way and answers nobody.
///
/// What an implementation must guarantee:
/// 1. Order: records of one file are committed in one total order, the same for every reader;
///    answers are delivered in that order, on the owner's serial context.
/// 2. Durability before commit: a record is reported committed only once it survives what the
///    log promises to survive; a record reported `appendFailed` never appears later.
/// 3. Exactly one answer per ticket.
/// 4. Compaction: after `compact(file:state:targets:)` the log may drop every record up to
///    it (the file journal rewrites `snapshot.json` and starts a new segment; a Redis stream
///    can `XTRIM`); restore is then the snapshot plus the records after it.
///
/// The file journal answers inside `append` (one shell step: single-node latency is the
/// disk's). A shared log (Redis streams) answers later, and also delivers records other nodes
/// appended, without a ticket.
public protocol ChangeLog: AnyObject {
    /// Performs an `append` action: appends `record` to `file`'s log after everything appended
    /// for that file before, and answers the ticket exactly once through `sink` (possibly
    /// before returning). The record is taken, not copied.
    func append(_ record: consuming JournalRecord, file: String, ticket: LogTicket, sink: any LogSink)

    /// Performs a `retract` action: the record just committed for `file` did not apply. A log
    /// may take it back when it is its last (the file journal does, so a restore never meets
    /// it); a shared log keeps it, and every replica rejects it alike.
    func retract(file: String)

    /// Performs a `compact` action: `state` and `targets` are the file after every record
    /// committed so far, and the log may drop those records (the snapshot's `upTo` is the
    /// log's own count). A failure keeps the longer log and is only reported; nothing is lost.
    func compact(file: String, state: JSONValue, targets: [JournalSnapshot.Target]) throws(LogFailure)

    /// Records of `file` committed since its last compaction (a log that never compacts answers
    /// 0): the shell passes it with each `committed` event, and the core compacts once it
    /// reaches `snapshotEvery`.
    func recordsSinceCompaction(of file: String) -> Int

    /// True for a log that holds every file in one sequence (a cluster's stream): when one file
    /// is due, the core compacts every file at once, so that no file pins the log's start.
    var compactsEveryFile: Bool { get }
}

extension ChangeLog {
    /// One log per file: each compacts on its own.
    public var compactsEveryFile: Bool { false }
}

/// Who the change log answers: the shell of the file's owner (a worker), which hands each
/// answer to its core as an event.
public protocol LogSink: AnyObject {
    /// A committed record, in log order.
    func committed(file: String, record: consuming JournalRecord, ticket: LogTicket?)

    /// An append that could not be made durable: nothing applies.
    func appendFailed(file: String, ticket: LogTicket, failure: LogFailure)
}

/// Identifies one proposal until the log answers it.
public struct LogTicket: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public var description: String { "ticket \(rawValue)" }
}

/// Why a record could not be made durable (a write or fsync failed, the log is unreachable).
public struct LogFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
