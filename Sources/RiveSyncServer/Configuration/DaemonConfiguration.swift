import RiveSyncJSON

/// Everything `rivesyncd` runs with, validated: files, shared instances, state machines,
/// listening address, workers and limits. Built from a JSON config file
/// (`DaemonConfiguration+JSON.swift`), the built-in demo, and flags; passed down as one value
/// (configuration flows one way).
public struct DaemonConfiguration: Sendable {
    /// A file to load at start.
    public struct FileEntry: Sendable, Hashable {
        public var name: String
        /// Path of a `.riv` file or JSON schema, or nil for inline `schema`.
        public var path: String?
        public var schema: JSONValue?
        /// Worker index; nil = spread round-robin.
        public var worker: Int?
    }

    /// An instance to create and publish under a name (e.g. `theme` = Theme/Dark).
    public struct InstanceEntry: Sendable, Hashable {
        public var name: String
        public var file: String
        public var viewModel: String
        /// The authored instance to start from; nil = the view model's default.
        public var instance: String?
    }

    /// A state machine to create at start.
    public struct StateMachineEntry: Sendable, Hashable {
        public var name: String
        public var file: String
        public var artboard: String?
        public var stateMachine: String?
        /// Global view model name → published instance name.
        public var globals: [String: String]
        public var manual: Bool
        public var rate: Double
    }

    public var host = "127.0.0.1"
    public var port = 7420
    /// `listen.sharePort`: other processes may listen on the same host and port
    /// (`SO_REUSEPORT`; cluster nodes on one machine).
    public var sharesPort = false
    public var workers = 2
    /// Transport (network) threads, each with its own libwebsockets context on the shared
    /// port; the kernel spreads connections over them (docs/CONFIGURATION.md).
    public var transportThreads = 1
    public var tlsCertificate: String?
    public var tlsKey: String?
    public var stateDirectory: String?
    public var files: [FileEntry] = []
    public var instances: [InstanceEntry] = []
    public var stateMachines: [StateMachineEntry] = []
    public var limits = Limits()
    /// Whether clients may load files at run time (`loadFile`).
    public var allowFileUploads = false
    /// Default advance rate of auto targets created by clients.
    public var defaultRate: Double = 60
    /// Tokens, anonymous access and allowed origins (the `auth` section).
    public var auth = Auth.loopbackOnly
    /// When acknowledged changes reach the disk (with a state directory).
    public var durability = DurabilityPolicy.always
    /// A file's journal is compacted into a snapshot after this many records.
    public var snapshotEvery = 10_000
    /// Whether commands are recorded with who sent them and batches carry `authors`
    /// (PROTOCOL.md §17; needs a restart).
    public var authors = true
    /// The least severe log lines written (`logLevel`; `--log-level` wins over it).
    public var logLevel = Log.Level.info
    /// How log lines are written (`logFormat`; `--log-format` wins over it).
    public var logFormat = LogFormat.text
    /// Targets that get their own `target` label in `/metrics`; the others are summed under
    /// `target="_other"` (`metrics.maxTargetLabels`).
    public var maxTargetLabels = 100
    /// The inspector and demo preview pages on the daemon's port (the `inspector` section).
    public var inspector = Inspector()
    /// The cluster this daemon is a node of (the `cluster` section, `--redis`); nil: a single node.
    public var cluster: Cluster?
    /// An inherited listening socket (systemd socket activation, see `SocketActivation`): the
    /// transport then binds nothing and `Supervisor` accepts on it. Not a configuration-file key.
    public var listenDescriptor: Int32?
    /// Test only (`--test-echo`, for Autobahn|Testsuite): echo every message instead of
    /// speaking the protocol. Not a configuration-file key.
    public var testEcho = false
    /// Names of the `files` and `instances` entries that were wrong and left out while checking
    /// (`read(_:baseDirectory:requiringAuth:_:)`): what names them is not reported again.
    var leftOut = LeftOut()

    /// See `leftOut`.
    struct LeftOut: Sendable {
        var files: Set<String> = []
        var instances: Set<String> = []
        /// Positions in the file of the entries left out, by list (`files`, `instances`,
        /// `stateMachines`), so that problems of the others name their own position.
        var positions: [String: [Int]] = [:]

        /// The position in the file of the `index`th entry kept of `list`.
        func position(_ index: Int, in list: String) -> Int {
            var position = index
            for skipped in positions[list, default: []].sorted() where skipped <= position { position += 1 }
            return position
        }
    }

    public init() {}
}
