import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// What the shell tells a worker core, the change log's answers included.
public enum WorkerEvent: Sendable {
    /// A request the dispatcher routed here, with who sent it: what its connection may do and
    /// the author its commands are recorded with.
    case request(ConnectionID, Request, sender: RequestSender)
    case timerFired(WorkerTimer)
    /// What the transport holds now (see `SendQueues`): the shell reports it before an event
    /// whenever it changed; the core's lag and catch-up decisions read the latest report.
    case sendQueues(SendQueues)
    /// A reload changed the configuration: the core keeps it (the files already loaded take
    /// its limits). Boxed: inline, the settings (160 bytes) would make every event, routed
    /// requests included, too large to move without a `memcpy` call.
    indirect case configured(WorkerSettings)
    /// The daemon placed a file (on this worker or another; told to every worker before the
    /// file's worker loads it, so before any of its instance ids can reach a request here):
    /// an instance id names its file, and the file's worker (`wrong_worker`).
    case filePlaced(name: String, Placement.FileLocation)
    /// A placed file's load failed: its number names no file.
    case fileReleased(number: UInt64)
    /// Uploaded assets became known (an upload, the state directory, the cluster's log) or were
    /// dropped from the full store: told to every worker before the upload's reply, so before
    /// a request can name the asset here; a set of an asset id is checked against them.
    case assetsChanged(added: [String], removed: [String])
    /// The shell's answer to `claimTarget(…, claim:)`.
    case targetClaimed(claim: UInt64, TargetClaim)
    /// The connection is gone: its subscriptions and pending acks are forgotten (its commands
    /// still apply).
    case closed(ConnectionID)
    /// The log will answer none of the proposals made so far (a cluster node's lease ended,
    /// protocol/CLUSTER.md §2.8) and their connections are being closed: their waiters are
    /// freed without an answer.
    case proposalsDropped
    /// A cluster node begins sharing presence with the other nodes (protocol/CLUSTER.md §2.9).
    case presenceSharingStarted
    /// Another node's presence announcement.
    case presenceAnnounced(node: String, PresenceAnnouncement)
    /// The change log committed `record` (durable, in the file's log order; see `ChangeLog`):
    /// an `append` of this core (`ticket`), or without a ticket another node's record.
    /// `recordsSinceCompaction`: the log's records of the file since its last compaction, this
    /// one included (the core compacts once it reaches `snapshotEvery`).
    case committed(file: String, record: JournalRecord, ticket: LogTicket?, recordsSinceCompaction: Int)
    /// The change log could not make an `append` durable: nothing applies.
    case appendFailed(file: String, ticket: LogTicket, failure: LogFailure)
}

/// A timer the core asked for (`.schedule`).
public enum WorkerTimer: Hashable, Sendable {
    /// An auto target's advance is due. `record`: where its record was when the timer was set
    /// (found without hashing the name while it still holds it; else by name).
    case advance(target: String, record: WorkerCore.TargetHandle? = nil)
    /// Lagging subscribers are checked for a drained send queue.
    case catchUpCheck
    /// A target's coalesced presence message may be sent (at most `rate` a second).
    case presenceMessage(target: String)
    /// A grace period of a target's presence member may have ended.
    case presenceGrace(target: String)
    /// A cluster node announces itself and gives up silent nodes (every third of its lease).
    case presencePeers
}

/// What a worker core asks the shell to do, in order.
public enum WorkerAction: Sendable {
    case send(Frame, to: Recipients)
    /// A routed request is dealt with (the transport's back-pressure credit).
    case handled(ConnectionID)
    /// A routed `subscribe` was answered: the dispatcher counts only one that succeeded.
    case subscribeAnswered(ConnectionID, target: String, paths: [String]?, succeeded: Bool)
    /// Deliver `timerFired(timer)` at `at` (the injected clock's nanoseconds).
    case schedule(WorkerTimer, at: UInt64)
    case log(LogLevel, String, [(String, String)])
    /// Tell the other nodes of the cluster (protocol/CLUSTER.md §2.9); never journaled.
    case sharePresence(PresenceAnnouncement)
    case count(WorkerCounter)
    /// Append `record` to `file`'s change log; the log's answer comes back as `committed` or
    /// `appendFailed` with `ticket` (see `ChangeLog`).
    case append(JournalRecord, file: String, ticket: LogTicket)
    /// The record just committed for `file` did not apply: a log may take it back.
    case retract(file: String)
    /// Compact `file`'s log: its state and targets after every record committed so far.
    case compact(file: String, state: JSONValue, targets: [JournalSnapshot.Target])
    /// Change the daemon's target names (the shared directory's).
    case targetNames(TargetNameChange)
    /// Claim a target name for `file` in the shared directory (unique in the daemon; refused
    /// once `limit` targets exist) and answer `targetClaimed(claim:)`, before the actions
    /// after this one.
    case claimTarget(String, file: String, limit: Int, claim: UInt64)
}

/// A metric the core counts (the shell owns the counters).
public enum WorkerCounter: Sendable, Equatable {
    /// Subscriptions of a target, up or down.
    case subscriptions(target: String, delta: Int)
    /// One batch of `target` (its record `record`) published; when `target` was the advanced
    /// one, with the commands the advance applied and rejected (one counter for the three: one
    /// action, one update). The shell finds the target's metrics by `record`, not by name.
    case published(target: String, record: WorkerCore.TargetHandle, applied: Int, rejected: Int)
    /// Rejected when abandoned.
    case commandsRejected(target: String, count: Int)
    /// Commands waiting for an advance and proposals the log has not answered yet, up or down:
    /// the changes of one event summed (`WorkerCore.takeActions`), at most one such action each.
    case waiting(commands: Int, proposals: Int)
    case error(WireErrorCode)
    /// How long applying an advance this worker proposed took, its batches built.
    case advanceDuration(nanoseconds: UInt64)
    case catchUp
}
