import RiveSyncModel

/// What the worker core may ask of the daemon around it: the clock and values of its
/// configuration, which assets exist, SHA-256. The shell answers from its configuration and
/// asset store; tests answer with fixed values and a mock clock. Nothing else is asked: the
/// transport's send queues are reported (`SendQueues`), where files live is told
/// (`filePlaced`), target names are claimed through actions (`claimTarget`, `targetNames`)
/// and command numbers are the core's own (`CommandNumbering`).
public protocol WorkerEnvironment: AnyObject {
    /// Monotonic nanoseconds.
    func now() -> UInt64
    /// The limits the worker applies now (a reload can change them).
    var limits: WorkerLimits { get }
    /// The daemon's epoch: cursors of another epoch get a snapshot.
    var epoch: String { get }
    /// The rate of an auto target whose record names none.
    var defaultRate: Double { get }
    /// Records after which a file's log is compacted.
    var snapshotEvery: Int { get }
    /// Whether another node's advance of a manual target (a record committed without a
    /// ticket) advances what this worker queued on it at once, so one `advance` request
    /// applies what every node queued (a cluster node; protocol/CLUSTER.md §1.8).
    var sharesManualAdvances: Bool { get }
    /// How a cluster node shares presence with the other nodes (nil: a single node; protocol/CLUSTER.md §2.9).
    var presenceSharing: PresenceSharing? { get }
    /// Whether commands are recorded with their authors and batches carry `authors`
    /// (configuration `authors`, PROTOCOL.md §17).
    var recordsAuthors: Bool { get }
    /// Whether an uploaded asset with this id exists.
    func assetExists(_ id: String) -> Bool
    /// Lower-case hex SHA-256 of `bytes` (the state digest).
    func sha256Hex(_ bytes: [UInt8]) -> String
}

extension WorkerEnvironment {
    /// A single node by default.
    public var presenceSharing: PresenceSharing? { nil }
}

/// The limits the worker core applies.
public struct WorkerLimits: Sendable, Equatable {
    public var maxListLength: Int
    public var maxStringBytes: Int
    public var maxInstancesPerFile: Int
    public var maxTargets: Int
    public var maxSendQueueBytes: Int
    /// Batches kept per target for resuming subscribers.
    public var historyBatches: Int
    /// The bounds of each target's presence.
    public var presence = PresenceLimits()

    public init(
        maxListLength: Int, maxStringBytes: Int, maxInstancesPerFile: Int, maxTargets: Int, maxSendQueueBytes: Int, historyBatches: Int
    ) {
        self.maxListLength = maxListLength
        self.maxStringBytes = maxStringBytes
        self.maxInstancesPerFile = maxInstancesPerFile
        self.maxTargets = maxTargets
        self.maxSendQueueBytes = maxSendQueueBytes
        self.historyBatches = historyBatches
    }

    /// The model's limits.
    var model: ModelLimits {
        var limits = ModelLimits()
        limits.maxListLength = maxListLength
        limits.maxStringBytes = maxStringBytes
        limits.maxInstances = maxInstancesPerFile
        return limits
    }
}

/// The answer to a claim of a target name for a client's request (`WorkerAction.claimTarget`).
public enum TargetClaim: Sendable, Equatable {
    case claimed
    /// The name is taken (or retired by another file).
    case taken
    /// The daemon holds `limit` targets already.
    case full
}
