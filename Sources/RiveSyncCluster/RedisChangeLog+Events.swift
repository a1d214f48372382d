import RiveSyncClusterCore
import RiveSyncCore
import RiveSyncRedis

extension RedisChangeLog {
    /// What the log tells its daemon (for logs, health and metrics), on the worker's queue.
    public enum Event: Sendable {
        /// The stream reader reached the end of the log again after being cut off.
        case caughtUp
        /// Reading from Redis failed (reported once); the node is cut off until `caughtUp`.
        case cutOff(RedisError)
        /// The lease ended: the node's own entries are no longer answered — no proposal made
        /// before gets an answer, so the sink frees what waits on them — and it should drop its
        /// clients (they resume on another node).
        case leaseLost
        /// An entry that cannot be read (skipped by every node alike).
        case invalidEntry(String)
        /// Writing a snapshot failed: the stream keeps its entries until the next one.
        case snapshotFailed(RedisError)
        /// The log is no longer the one this node applied: it stopped reading for good, and must
        /// start again from the snapshot as a new node (the daemon exits for its supervisor).
        case logLost(LogLoss)
    }

    /// How a `file` or `asset` entry proposed by this node ended.
    public enum EntryOutcome: Sendable {
        /// Committed: `applied` tells whether applying it did anything (false: a file's name
        /// was taken by then, on every node alike).
        case committed(applied: Bool)
        case failed(LogFailure)
    }
}
