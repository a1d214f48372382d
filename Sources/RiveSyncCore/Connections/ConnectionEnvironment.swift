import RiveSyncJSON
import RiveSyncProtocol

/// What the connection core may ask of the daemon around it: the clock and values of the
/// configuration and tokens. Where files and targets live is not asked: the core keeps its own
/// copy (`ConnectionEvent.placed`). The shell answers from its configuration and tokens; tests
/// answer with fixed values and a mock clock.
public protocol ConnectionEnvironment: AnyObject {
    /// Monotonic nanoseconds.
    func now() -> UInt64
    var limits: ConnectionLimits { get }
    /// Whether a connection with this `Origin` header (nil: none) may stay open.
    func admits(origin: String?) -> Bool
    /// The identity a `hello` with `token` gets, or nil (unauthorized).
    func authenticate(token: String?, remoteAddress: String) -> Identity?
    /// What `identity` may do now (its token's scopes as last read); nil once its token is
    /// revoked. The rules that apply them are the core's (`Grants.denial(of:)`).
    func grants(of identity: Identity) -> Grants?
    /// Whether clients may load files (configuration `allowFileUploads`).
    var acceptsFiles: Bool { get }
    /// The files of the configuration (the `files` reply tells them from clients' files).
    var configuredFiles: Set<String> { get }
    /// The `welcome` reply.
    func welcome(id: JSONValue?) -> ServerMessage
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
