import RiveSyncJSON

/// Everything `rivesyncd` runs with, validated: files, shared instances, state machines,
/// listening address, workers and limits. Built from a JSON config file, the built-in demo,
/// and flags; passed down as one value (configuration flows one way).
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
    public var workers = 2
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
    /// The inspector and demo preview pages on the daemon's port (the `inspector` section).
    public var inspector = Inspector()
    /// An inherited listening socket (systemd socket activation, see `SocketActivation`): the
    /// transport then binds nothing and `Supervisor` accepts on it. Not a configuration-file key.
    public var listenDescriptor: Int32?
    /// Test only (`--test-echo`, for Autobahn|Testsuite): echo every message instead of
    /// speaking the protocol. Not a configuration-file key.
    public var testEcho = false

    public init() {}

    /// Reads a JSON configuration (see the README's configuration section). Relative file
    /// paths are resolved against `baseDirectory`.
    public init(json: JSONValue, baseDirectory: String) throws(ConfigurationError) {
        guard json.objectValue != nil else { throw .invalid("configuration: expected a JSON object") }
        let known: Set<String> = [
            "listen", "workers", "tls", "stateDirectory", "files", "instances", "stateMachines", "limits", "allowFileUploads",
            "defaultRate", "durability", "snapshotEvery", "auth", "inspector",
        ]
        for (key, _) in json.objectValue! where !known.contains(key) {
            throw .invalid("configuration: unknown key '\(key)'")
        }
        if let listen = json["listen"] {
            if let host = listen["host"] { self.host = try Self.string(host, "listen.host") }
            if let port = listen["port"] {
                guard let p = port.intValue, (0...65535).contains(p) else { throw .invalid("listen.port: expected 0...65535") }
                self.port = p
            }
        }
        if let workers = json["workers"] {
            guard let n = workers.intValue, (1...64).contains(n) else { throw .invalid("workers: expected 1...64") }
            self.workers = n
        }
        if let tls = json["tls"] {
            tlsCertificate = Self.resolve(try Self.string(tls["certificate"], "tls.certificate"), baseDirectory)
            tlsKey = Self.resolve(try Self.string(tls["key"], "tls.key"), baseDirectory)
        }
        if let directory = json["stateDirectory"] { stateDirectory = Self.resolve(try Self.string(directory, "stateDirectory"), baseDirectory) }
        if let limits = json["limits"] { self.limits = try Limits(json: limits) }
        guard let auth = json["auth"] else {
            throw .invalid("auth: required — give tokens, or allow anonymous access explicitly, e.g. \"auth\": {\"allowAnonymous\": \"loopback\"}")
        }
        self.auth = try Auth(json: auth, baseDirectory: baseDirectory)
        if let inspector = json["inspector"] { self.inspector = try Inspector(json: inspector) }
        if let uploads = json["allowFileUploads"] {
            guard let b = uploads.boolValue else { throw .invalid("allowFileUploads: expected true or false") }
            allowFileUploads = b
        }
        if let rate = json["defaultRate"] {
            guard let r = rate.numberValue, r > 0, r <= 1000 else { throw .invalid("defaultRate: expected (0, 1000]") }
            defaultRate = r
        }
        if let durability = json["durability"] {
            guard let text = durability.stringValue, let policy = DurabilityPolicy(rawValue: text) else {
                throw .invalid("durability: expected \"always\" or \"everysec\"")
            }
            self.durability = policy
        }
        if let every = json["snapshotEvery"] {
            guard let n = every.intValue, (10...10_000_000).contains(n) else { throw .invalid("snapshotEvery: expected 10...10000000") }
            snapshotEvery = n
        }
        for (i, item) in (json["files"]?.arrayValue ?? []).enumerated() {
            let here = "files[\(i)]"
            var entry = FileEntry(name: try Self.string(item["name"], "\(here).name"), path: nil, schema: nil, worker: nil)
            if let path = item["path"] { entry.path = Self.resolve(try Self.string(path, "\(here).path"), baseDirectory) }
            if let schema = item["schema"] { entry.schema = schema }
            guard (entry.path == nil) != (entry.schema == nil) else { throw .invalid("\(here): give exactly one of 'path' and 'schema'") }
            if let worker = item["worker"] {
                guard let w = worker.intValue, w >= 0 else { throw .invalid("\(here).worker: expected a worker index") }
                entry.worker = w
            }
            files.append(entry)
        }
        for (i, item) in (json["instances"]?.arrayValue ?? []).enumerated() {
            let here = "instances[\(i)]"
            instances.append(
                InstanceEntry(
                    name: try Self.string(item["name"], "\(here).name"), file: try Self.string(item["file"], "\(here).file"),
                    viewModel: try Self.string(item["viewModel"], "\(here).viewModel"),
                    instance: try item["instance"].map { (v) throws(ConfigurationError) in try Self.string(v, "\(here).instance") }))
        }
        for (i, item) in (json["stateMachines"]?.arrayValue ?? []).enumerated() {
            let here = "stateMachines[\(i)]"
            var globals: [String: String] = [:]
            for (name, value) in item["globals"]?.objectValue ?? [] { globals[name] = try Self.string(value, "\(here).globals.\(name)") }
            let mode = try item["mode"].map { (v) throws(ConfigurationError) in try Self.string(v, "\(here).mode") } ?? "auto"
            guard mode == "auto" || mode == "manual" else { throw .invalid("\(here).mode: expected auto or manual") }
            let rate = item["rate"]?.numberValue ?? defaultRate
            guard rate > 0, rate <= 1000 else { throw .invalid("\(here).rate: expected (0, 1000]") }
            stateMachines.append(
                StateMachineEntry(
                    name: try Self.string(item["name"], "\(here).name"), file: try Self.string(item["file"], "\(here).file"),
                    artboard: try item["artboard"].map { (v) throws(ConfigurationError) in try Self.string(v, "\(here).artboard") },
                    stateMachine: try item["stateMachine"].map { (v) throws(ConfigurationError) in try Self.string(v, "\(here).stateMachine") },
                    globals: globals, manual: mode == "manual", rate: rate))
        }
    }

    private static func string(_ json: JSONValue?, _ here: String) throws(ConfigurationError) -> String {
        guard let text = json?.stringValue else { throw .invalid("\(here): expected a string") }
        return text
    }

    private static func resolve(_ path: String, _ base: String) -> String {
        path.hasPrefix("/") ? path : base + "/" + path
    }
}
