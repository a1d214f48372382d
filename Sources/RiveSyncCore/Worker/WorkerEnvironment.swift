import RiveSyncModel

/// What the worker core may ask of the daemon around it: the clock and SHA-256 (a pure
/// function, libcrypto's in the shell). Tests answer with a mock clock. Which assets exist is
/// told (`assetsChanged`). The
/// configuration is the core's own state (`WorkerSettings`, kept by `configured`); the
/// transport's send queues are reported (`SendQueues`), where files live is told
/// (`filePlaced`), target names are claimed through actions (`claimTarget`, `targetNames`)
/// and command numbers are the core's own (`CommandNumbering`).
public protocol WorkerEnvironment: AnyObject {
    /// Monotonic nanoseconds.
    func now() -> UInt64
    /// Lower-case hex SHA-256 of `bytes` (the state digest).
    func sha256Hex(_ bytes: [UInt8]) -> String
}

/// What the worker core knows of the daemon's configuration, as its own state: the shell gives
/// it at start and sends it again (`WorkerEvent.configured`) when a reload changes the limits.
public struct WorkerSettings: Sendable {
    /// The limits the worker applies.
    public var limits: WorkerLimits
    /// The daemon's epoch: cursors of another epoch get a snapshot.
    public var epoch: String
    /// The rate of an auto target whose record names none.
    public var defaultRate: Double
    /// Records after which a file's log is compacted.
    public var snapshotEvery: Int
    /// Whether another node's advance of a manual target (a record committed without a
    /// ticket) advances what this worker queued on it at once, so one `advance` request
    /// applies what every node queued (a cluster node; protocol/CLUSTER.md §1.8).
    public var sharesManualAdvances: Bool
    /// How a cluster node shares presence with the other nodes (nil: a single node; protocol/CLUSTER.md §2.9).
    public var presenceSharing: PresenceSharing?
    /// Whether commands are recorded with their authors and batches carry `authors`
    /// (configuration `authors`, PROTOCOL.md §17).
    public var recordsAuthors: Bool
    /// Free bytes the shell's transport wants in front of every frame the core encodes (lws'
    /// `LWS_PRE`): with them it sends a frame where it was written (0: it copies).
    public var frameHeadroom = 0

    public init(
        limits: WorkerLimits, epoch: String, defaultRate: Double, snapshotEvery: Int, sharesManualAdvances: Bool = false,
        presenceSharing: PresenceSharing? = nil, recordsAuthors: Bool
    ) {
        self.limits = limits
        self.epoch = epoch
        self.defaultRate = defaultRate
        self.snapshotEvery = snapshotEvery
        self.sharesManualAdvances = sharesManualAdvances
        self.presenceSharing = presenceSharing
        self.recordsAuthors = recordsAuthors
    }
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
