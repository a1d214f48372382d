import RiveSyncProtocol

/// What the connection core knows of the daemon's configuration and tokens, as its own state:
/// the shell gives it at start and sends it again (`configured`) when a reload changes it
/// (SIGHUP: the tokens file, the reloadable limits) and once the daemon listens (its port), in
/// order with every other event. Nothing of it is asked while a message is handled.
public struct ConnectionSettings: Sendable {
    public var limits: ConnectionLimits
    /// The tokens and anonymous access.
    public var access: ConnectionAccess
    /// Which `Origin` headers may open a connection.
    public var origins: OriginPolicy
    /// Whether clients may load files (configuration `allowFileUploads`).
    public var acceptsFiles: Bool
    /// The files of the configuration (the `files` reply tells them from clients' files).
    public var configuredFiles: Set<String>
    /// The `welcome` reply (its `id` is the `hello`'s).
    public var welcome: ServerMessage.Welcome
    /// Where other shards' files and targets are, on a cluster node of several shards (nil:
    /// this daemon holds every file and target there is).
    public var shards: ShardPlacement?
    /// Free bytes the shell's transport wants in front of every frame the core encodes (lws'
    /// `LWS_PRE`): with them it sends a frame where it was written (0: it copies).
    public var frameHeadroom = 0

    public init(
        limits: ConnectionLimits, access: ConnectionAccess, origins: OriginPolicy, acceptsFiles: Bool, configuredFiles: Set<String>,
        welcome: ServerMessage.Welcome, shards: ShardPlacement? = nil
    ) {
        self.limits = limits
        self.access = access
        self.origins = origins
        self.acceptsFiles = acceptsFiles
        self.configuredFiles = configuredFiles
        self.welcome = welcome
        self.shards = shards
    }
}
