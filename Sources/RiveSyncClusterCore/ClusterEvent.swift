/// What the shell tells the cluster core: what Redis answered, what the reader read, and the
/// time (every event that needs it carries the clock's reading; the core reads no clock).
public enum ClusterEvent: Hashable, Sendable {
    /// The worker proposes an entry under `ticket` (a record, a file, an asset).
    case proposed(ticket: UInt64, now: ClusterInstant)
    /// The append connection asked for by `connect` is open.
    case connected(now: ClusterInstant)
    /// Connecting failed (Redis did not answer).
    case connectFailed(now: ClusterInstant)
    /// The oldest append in flight got an id (it is answered when read back).
    case appendAccepted(now: ClusterInstant)
    /// The oldest append in flight was refused; `fenced`: the lease key no longer holds the token.
    case appendRefused(message: String, fenced: Bool, now: ClusterInstant)
    /// The append connection broke: every append in flight may or may not be in the log.
    case appendConnectionBroke(now: ClusterInstant)
    /// `send`s the shell did not send, oldest first: the append connection was found closed
    /// (or gone) before they went out, so they surely are not in the log.
    case notSent([UInt64], now: ClusterInstant)
    /// The `join` asked for went in: the lease key holds `token` (its `SET` sent at `sentAt`)
    /// and a `join` entry with it is in the log.
    case joined(token: String, sentAt: ClusterInstant, now: ClusterInstant)
    /// The join's `SET` went in — the lease key holds `token` (sent at `sentAt`) — but its
    /// `join` entry did not (a `joinFailed` follows): the token is the lease's from now on.
    case tokenTaken(token: String, sentAt: ClusterInstant, now: ClusterInstant)
    /// The `join` failed; `connectionClosed`: the append connection is gone too.
    case joinFailed(connectionClosed: Bool, now: ClusterInstant)
    /// The lease timer, or a `wake` asked for, fired.
    case tick(now: ClusterInstant)
    /// Redis answered the renewal of `generation` sent at `sentAt`: `held` false when the key
    /// no longer holds the token.
    case leaseRenewed(generation: Int, sentAt: ClusterInstant, held: Bool, now: ClusterInstant)
    /// The renewal got no answer.
    case leaseRenewalFailed(now: ClusterInstant)
    /// The reader (re)connected; the stream's last entry is `last` (nil: the stream is empty).
    case readerConnected(last: LogPosition?, now: ClusterInstant)
    /// The reader read `entries` (in stream order; checked, and confirmed by the replicas
    /// when the cluster waits for them), and reads on after `upTo` (past entries nobody
    /// applies: voided, or unreadable).
    case read([LogEntry], upTo: LogPosition, now: ClusterInstant)
    /// A read ended with nothing new.
    case readNothing(now: ClusterInstant)
    /// A read failed (Redis did not answer).
    case readFailed(now: ClusterInstant)
    /// `WAIT` timed out for a read of `entries`: nothing of it is applied; it is read again
    /// (a `readFailed` follows).
    case replicasBehind([LogEntry], now: ClusterInstant)
    /// The void asked for `ticket` was done (`voided`), or refused because a node had confirmed
    /// the entry first.
    case voidAnswered(ticket: UInt64, voided: Bool, now: ClusterInstant)
    /// The check after a read found the log is not the one this node applied.
    case checkFailed(LogLoss)
}

/// What the cluster core asks the shell to do, in order.
public enum ClusterAction: Hashable, Sendable {
    /// Open the append connection (answer `connected` or `connectFailed`).
    case connect
    /// Append `ticket`'s entry with `token` through the fencing script, pipelined (answer
    /// `appendAccepted` / `appendRefused` in order, or `appendConnectionBroke`).
    case send(ticket: UInt64, token: String)
    /// Take a new token (`SET` the lease key) and append a `join` with it, waiting for each
    /// reply (answer `joined`, or `joinFailed` — after `tokenTaken` when the `SET` went in).
    case join
    /// Renew the lease of `token` (answer `leaseRenewed` or `leaseRenewalFailed`).
    case renewLease(token: String, generation: Int)
    /// Send a `tick` at `at` (a join retried, a quarantine over).
    case wake(at: ClusterInstant)
    /// Apply `entry` on the worker; `ticket` answers the node's proposal (acks). `compacts`:
    /// every file is due for compaction at this entry (its record count in the whole log is a
    /// multiple of `snapshotEvery`), once it applied.
    case commit(LogEntry, ticket: UInt64?, compacts: Bool)
    /// `ticket`'s proposal surely is not in the log, and never will be: `storage_failed`.
    case appendFailed(ticket: UInt64, AppendFailure)
    /// The lease ended: none of `dropped` will ever be answered; close every connection (1001).
    case leaseLost(dropped: [UInt64])
    /// The node's state is fresh again, or may be behind (`freshness`, `/readyz`).
    case freshness(Bool)
    /// The reader caught up the first time: the node may serve (and drops its pin).
    case caughtUpAtStart
    /// Void `ticket`'s entry at `position` unless a node confirmed it (answer `voidAnswered`).
    case void(ticket: UInt64, at: LogPosition)
    /// The log is not the one this node applied: stop for good (exit 75).
    case logLost(LogLoss)
}
