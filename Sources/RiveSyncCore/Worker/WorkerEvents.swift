import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// What the shell tells a worker core. The change log's answers come through `LogSink`.
public enum WorkerEvent: Sendable {
    /// A request the dispatcher routed here, with what its connection may do and who sent it
    /// (its `hello` `client` and token name; recorded with its commands, PROTOCOL.md §17).
    case request(ConnectionID, Request, grants: any RequestGrants, author: Author? = nil)
    case timerFired(WorkerTimer)
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
}

/// A timer the core asked for (`.schedule`).
public enum WorkerTimer: Hashable, Sendable {
    /// An auto target's advance is due.
    case advance(target: String)
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
    case send(Frame, to: [ConnectionID])
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
}

/// A metric the core counts (the shell owns the counters).
public enum WorkerCounter: Sendable, Equatable {
    /// Subscriptions of a target, up or down.
    case subscriptions(target: String, delta: Int)
    case batches(target: String)
    case commandsApplied(target: String, count: Int)
    /// Rejected when applied, or abandoned.
    case commandsRejected(target: String, count: Int)
    /// Commands waiting for an advance, up or down.
    case commandsQueued(delta: Int)
    case error(WireErrorCode)
    /// How long proposing (and, with a log that answers at once, applying) an advance took.
    case advanceDuration(nanoseconds: UInt64)
    case catchUp
    /// Proposals the log has not answered yet, up or down.
    case proposalsWaiting(delta: Int)
}
