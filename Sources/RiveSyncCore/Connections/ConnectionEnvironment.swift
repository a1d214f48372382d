import RiveSyncProtocol

/// What the connection core may ask of the daemon around it: the clock, and on a cluster node
/// of several shards which node serves a name this daemon does not hold (asked only for such a
/// name). The configuration and tokens are its own state (`ConnectionSettings`, kept by
/// `configured`); where files and targets live here is its own copy (`ConnectionEvent.placed`).
/// The shell answers from its clock and shard directory; tests answer with a mock clock.
public protocol ConnectionEnvironment: AnyObject {
    /// Monotonic nanoseconds.
    func now() -> UInt64
    /// The error for a file this daemon does not hold because another node serves it (a
    /// cluster node of other shards: `wrong_node`); nil: the file does not exist.
    func placedElsewhere(file: String) -> WireError?
    /// The same for a target.
    func placedElsewhere(target: String) -> WireError?
}

extension ConnectionEnvironment {
    /// One daemon holds every file.
    public func placedElsewhere(file: String) -> WireError? { nil }
    /// One daemon holds every target.
    public func placedElsewhere(target: String) -> WireError? { nil }
}

/// The limits the connection core applies.
public struct ConnectionLimits: Sendable {
    public var helloTimeoutSeconds: Int
    public var maxCommandsPerSecond: Int
    public var maxJSONDepth: Int
    public var maxMessageBytes: Int
    public var maxSubscriptions: Int
    public var maxAssetBytes: Int
    /// Commands in one `transaction` (PROTOCOL.md §16).
    public var maxTransactionCommands: Int
    /// Bytes of a `.riv` file a client loads, whole or in parts (PROTOCOL.md §9).
    public var maxFileBytes: Int

    public init(
        helloTimeoutSeconds: Int, maxCommandsPerSecond: Int, maxJSONDepth: Int, maxMessageBytes: Int, maxSubscriptions: Int,
        maxAssetBytes: Int, maxTransactionCommands: Int = 256, maxFileBytes: Int = 64 << 20
    ) {
        self.helloTimeoutSeconds = helloTimeoutSeconds
        self.maxCommandsPerSecond = maxCommandsPerSecond
        self.maxJSONDepth = maxJSONDepth
        self.maxMessageBytes = maxMessageBytes
        self.maxSubscriptions = maxSubscriptions
        self.maxAssetBytes = maxAssetBytes
        self.maxTransactionCommands = maxTransactionCommands
        self.maxFileBytes = maxFileBytes
    }
}
