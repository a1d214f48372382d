/// Why a proposal surely did not get into the log (each is answered `storage_failed`, with
/// its `description` as the message).
public enum AppendFailure: Hashable, Sendable, CustomStringConvertible {
    /// The node cannot read the log, or Redis did not answer a connect (§3.3).
    case unreachable
    /// The node's lease ended; it appends nothing until its quarantine is over (§2.8).
    case leaseEnded
    /// Redis refused the append (`FENCED`, or another error reply): this append only (§2.4).
    case refused(String)
    /// The append connection broke with it in flight, and the node's `join` came first (§2.4).
    case connectionBroke
    /// `WAIT` timed out for the read that held it, and it was voided (§3.6).
    case replicasBehind

    public var description: String {
        switch self {
        case .unreachable: "the cluster log is unreachable"
        case .leaseEnded: "this node's cluster lease ended; it rejoins in a moment"
        case .refused(let message): "the cluster log is unreachable: \(message)"
        case .connectionBroke: "the connection to Redis broke before the change was appended"
        case .replicasBehind: "fewer replicas than waitForReplicas confirmed the change in time"
        }
    }
}

/// Why a node cannot go on with the log it applied (§2.7, §3.5).
public enum LogLoss: Hashable, Sendable, CustomStringConvertible {
    /// Entries after the last one it applied were trimmed before it read them.
    case behindTrim
    /// The log went back: the last entry it applied is gone without a trim, or the cluster's
    /// epoch changed (a Redis that lost writes, another dataset, a `FLUSHALL`).
    case wentBack

    public var description: String {
        switch self {
        case .behindTrim: "entries this node had not applied were trimmed (it is behind the cluster's snapshot)"
        case .wentBack: "the cluster log went back (Redis lost entries this node applied, or its epoch changed)"
        }
    }
}
