import RiveSyncJSON
import RiveSyncProtocol

/// What the connection core may ask of the daemon around it. The shell answers from its
/// configuration, tokens and directory; tests answer with fixed values and a mock clock.
public protocol ConnectionEnvironment: AnyObject {
    /// Monotonic nanoseconds.
    func now() -> UInt64
    var limits: ConnectionLimits { get }
    /// Whether a connection with this `Origin` header (nil: none) may stay open.
    func admits(origin: String?) -> Bool
    /// The identity a `hello` with `token` gets, or nil (unauthorized).
    func authenticate(token: String?, remoteAddress: String) -> Identity?
    /// Whether `identity` may make `request` now.
    func authorize(_ request: ClientRequest, as identity: Identity) -> Authorization
    /// Whether `identity` is still valid (a token can be revoked by a reload).
    func isValid(_ identity: Identity) -> Bool
    /// Whether `identity` may still hold a subscription.
    func allowsSubscription(_ identity: Identity, to target: String, paths: [String]) -> Bool
    /// The worker that owns a request's file or target, or the error for one that does not exist.
    func worker(for request: ClientRequest) -> Result<Int, WireError>
    /// The `welcome` reply.
    func welcome(id: JSONValue?) -> ServerMessage
    /// The `files` reply.
    func files(id: JSONValue?) -> ServerMessage
    /// False while the daemon's state may be behind (a cluster node that cannot read the
    /// cluster's log): a connection that says hello then gets `freshness` false after `welcome`.
    var stateIsFresh: Bool { get }
}

extension ConnectionEnvironment {
    /// A single daemon's state is never behind.
    public var stateIsFresh: Bool { true }
}

/// The answer to `authorize`.
public enum Authorization: Sendable, Equatable {
    case allowed
    case denied(WireError)
    /// The connection's token is gone: it is refused and closed.
    case revoked
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
