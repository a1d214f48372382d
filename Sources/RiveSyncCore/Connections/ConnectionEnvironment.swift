import RiveSyncProtocol

/// What the connection core may ask of the daemon around it: the clock, nothing else. The
/// configuration and tokens are its own state (`ConnectionSettings`, kept by `configured`),
/// where files and targets live here is its own copy (`ConnectionEvent.placed`), and where
/// other shards' are too (`ShardPlacement`, kept by `shardsRead`). The shell answers from its
/// clock; tests answer with a mock clock.
public protocol ConnectionEnvironment: AnyObject {
    /// Monotonic nanoseconds.
    func now() -> UInt64
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
