import RiveSyncJSON

extension DaemonConfiguration {
    /// Reads a JSON configuration (rivesyncd.conf(5); `config/rivesyncd.schema.json`). Relative
    /// file paths are resolved against `baseDirectory`. Every problem is collected, each named
    /// by its key path; more than one is thrown as `ConfigurationError.several`.
    public init(json: JSONValue, baseDirectory: String) throws(ConfigurationError) {
        self.init()
        var problems = ConfigurationProblems()
        read(json, baseDirectory: baseDirectory, requiringAuth: true, &problems)
        try problems.throwIfAny()
    }

    /// Reads the keys of `json` over this configuration (a key given replaces what it held, an
    /// array key the whole array), collecting every problem in `problems` instead of stopping:
    /// a wrong entry of `files` or `instances` is left out and its name kept in `leftOut`, so
    /// that `--check-config` goes on to check the rest without reporting what follows from it.
    /// Without `requiringAuth`, a missing `auth` keeps the configuration's own.
    mutating func read(_ json: JSONValue, baseDirectory: String, requiringAuth: Bool, _ problems: inout ConfigurationProblems) {
        guard json.objectValue != nil else { return problems.add(.invalid("configuration: expected a JSON object")) }
        problems.refuseUnknownKeys(of: json, section: "", here: "")
        let base = baseDirectory
        if let listen = json["listen"] {
            problems.refuseUnknownKeys(of: listen, section: "listen", here: "listen")
            problems.check { () throws(ConfigurationError) in
                if let host = listen["host"] { self.host = try Self.string(host, "listen.host") }
            }
            problems.check { () throws(ConfigurationError) in
                if let port = listen["port"] { self.port = try Self.integer(port, "listen.port", in: 0...65535) }
            }
            problems.check { () throws(ConfigurationError) in
                if let share = listen["sharePort"] { self.sharesPort = try Self.bool(share, "listen.sharePort") }
            }
        }
        problems.check { () throws(ConfigurationError) in
            if let workers = json["workers"] { self.workers = try Self.integer(workers, "workers", in: 1...64) }
        }
        problems.check { () throws(ConfigurationError) in
            if let threads = json["transportThreads"] {
                self.transportThreads = try Self.integer(threads, "transportThreads", in: 1...64)
            }
        }
        if let tls = json["tls"] {
            problems.refuseUnknownKeys(of: tls, section: "tls", here: "tls")
            problems.check { () throws(ConfigurationError) in
                tlsCertificate = Self.resolve(try Self.string(tls["certificate"], "tls.certificate"), base)
            }
            problems.check { () throws(ConfigurationError) in tlsKey = Self.resolve(try Self.string(tls["key"], "tls.key"), base) }
        }
        problems.check { () throws(ConfigurationError) in
            if let directory = json["stateDirectory"] { stateDirectory = Self.resolve(try Self.string(directory, "stateDirectory"), base) }
        }
        problems.check { () throws(ConfigurationError) in
            if let limits = json["limits"] { self.limits = try Limits(json: limits) }
        }
        problems.check { () throws(ConfigurationError) in
            guard let auth = json["auth"] else {
                guard requiringAuth else { return }
                throw .invalid(
                    "auth: required — give tokens, or allow anonymous access explicitly, e.g. \"auth\": {\"allowAnonymous\": \"loopback\"}")
            }
            self.auth = try Auth(json: auth, baseDirectory: base)
        }
        problems.check { () throws(ConfigurationError) in
            if let inspector = json["inspector"] { self.inspector = try Inspector(json: inspector) }
        }
        problems.check { () throws(ConfigurationError) in
            if let cluster = json["cluster"] { self.cluster = try Cluster(json: cluster) }
        }
        problems.check { () throws(ConfigurationError) in
            if let uploads = json["allowFileUploads"] { allowFileUploads = try Self.bool(uploads, "allowFileUploads") }
        }
        problems.check { () throws(ConfigurationError) in
            if let rate = json["defaultRate"] { defaultRate = try Self.rate(rate, "defaultRate") }
        }
        problems.check { () throws(ConfigurationError) in
            guard let durability = json["durability"] else { return }
            guard let text = durability.stringValue, let policy = DurabilityPolicy(rawValue: text) else {
                throw .invalid("durability: expected \"always\" or \"everysec\"")
            }
            self.durability = policy
        }
        problems.check { () throws(ConfigurationError) in
            if let every = json["snapshotEvery"] { snapshotEvery = try Self.integer(every, "snapshotEvery", in: 10...10_000_000) }
        }
        problems.check { () throws(ConfigurationError) in
            if let authors = json["authors"] { self.authors = try Self.bool(authors, "authors") }
        }
        problems.check { () throws(ConfigurationError) in
            guard let level = json["logLevel"] else { return }
            guard let parsed = level.stringValue.flatMap(Log.Level.init(rawValue:)) else {
                throw .invalid("logLevel: expected one of \(Log.Level.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            logLevel = parsed
        }
        problems.check { () throws(ConfigurationError) in
            guard let format = json["logFormat"] else { return }
            guard let parsed = format.stringValue.flatMap(LogFormat.init(rawValue:)) else {
                throw .invalid("logFormat: expected one of \(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            logFormat = parsed
        }
        if let metrics = json["metrics"] {
            problems.refuseUnknownKeys(of: metrics, section: "metrics", here: "metrics")
            problems.check { () throws(ConfigurationError) in
                if let cap = metrics["maxTargetLabels"] {
                    maxTargetLabels = try Self.integer(cap, "metrics.maxTargetLabels", in: 0...10_000)
                }
            }
        }
        if json["files"] != nil { files = [] }
        for (i, item) in Self.items(json, "files", &problems) {
            guard item.objectValue != nil else {
                leftOut.positions["files", default: []].append(i)
                continue
            }
            let here = "files[\(i)]"
            let kept = files.count
            problems.refuseUnknownKeys(of: item, section: "files[]", here: here)
            problems.check { () throws(ConfigurationError) in files.append(try Self.file(item, here, base)) }
            if files.count == kept {
                leftOut.positions["files", default: []].append(i)
                if let name = item["name"]?.stringValue { leftOut.files.insert(name) }
            }
        }
        if json["instances"] != nil { instances = [] }
        for (i, item) in Self.items(json, "instances", &problems) {
            guard item.objectValue != nil else {
                leftOut.positions["instances", default: []].append(i)
                continue
            }
            let here = "instances[\(i)]"
            let kept = instances.count
            problems.refuseUnknownKeys(of: item, section: "instances[]", here: here)
            defer {
                if instances.count == kept {
                    leftOut.positions["instances", default: []].append(i)
                    if let name = item["name"]?.stringValue { leftOut.instances.insert(name) }
                }
            }
            problems.check { () throws(ConfigurationError) in
                instances.append(
                    InstanceEntry(
                        name: try Self.string(item["name"], "\(here).name"), file: try Self.string(item["file"], "\(here).file"),
                        viewModel: try Self.string(item["viewModel"], "\(here).viewModel"),
                        instance: try item["instance"].map { (v) throws(ConfigurationError) in try Self.string(v, "\(here).instance") }))
            }
        }
        if json["stateMachines"] != nil { stateMachines = [] }
        for (i, item) in Self.items(json, "stateMachines", &problems) {
            guard item.objectValue != nil else {
                leftOut.positions["stateMachines", default: []].append(i)
                continue
            }
            let here = "stateMachines[\(i)]"
            let kept = stateMachines.count
            defer { if stateMachines.count == kept { leftOut.positions["stateMachines", default: []].append(i) } }
            problems.refuseUnknownKeys(of: item, section: "stateMachines[]", here: here)
            let defaultRate = self.defaultRate
            problems.check { () throws(ConfigurationError) in
                stateMachines.append(try Self.stateMachine(item, here, defaultRate: defaultRate))
            }
        }
    }

    private static func file(_ item: JSONValue, _ here: String, _ base: String) throws(ConfigurationError) -> FileEntry {
        var entry = FileEntry(name: try string(item["name"], "\(here).name"), path: nil, schema: nil, worker: nil)
        if let path = item["path"] { entry.path = resolve(try string(path, "\(here).path"), base) }
        if let schema = item["schema"] {
            guard schema.objectValue != nil else { throw .invalid("\(here).schema: expected a schema object (protocol/SCHEMA.md)") }
            entry.schema = schema
        }
        guard (entry.path == nil) != (entry.schema == nil) else { throw .invalid("\(here): give exactly one of 'path' and 'schema'") }
        if let worker = item["worker"] { entry.worker = try integer(worker, "\(here).worker", in: 0...63) }
        return entry
    }

    private static func stateMachine(_ item: JSONValue, _ here: String, defaultRate: Double) throws(ConfigurationError) -> StateMachineEntry
    {
        var globals: [String: String] = [:]
        if let members = item["globals"] {
            guard let map = members.objectValue else {
                throw .invalid("\(here).globals: expected an object of view model name to instance name")
            }
            for (name, value) in map { globals[name] = try string(value, "\(here).globals.\(name)") }
        }
        let mode = try item["mode"].map { (v) throws(ConfigurationError) in try string(v, "\(here).mode") } ?? "auto"
        guard mode == "auto" || mode == "manual" else { throw .invalid("\(here).mode: expected \"auto\" or \"manual\"") }
        let rate = try item["rate"].map { (v) throws(ConfigurationError) in try Self.rate(v, "\(here).rate") } ?? defaultRate
        return StateMachineEntry(
            name: try string(item["name"], "\(here).name"), file: try string(item["file"], "\(here).file"),
            artboard: try item["artboard"].map { (v) throws(ConfigurationError) in try string(v, "\(here).artboard") },
            stateMachine: try item["stateMachine"].map { (v) throws(ConfigurationError) in try string(v, "\(here).stateMachine") },
            globals: globals, manual: mode == "manual", rate: rate)
    }

    /// The items of an array-valued key with their positions (none when absent; a problem when
    /// not an array, and one for each item that is not an object).
    private static func items(_ json: JSONValue, _ key: String, _ problems: inout ConfigurationProblems) -> [(Int, JSONValue)] {
        guard let value = json[key] else { return [] }
        guard let list = value.arrayValue else {
            problems.add(.invalid("\(key): expected an array"))
            return []
        }
        for (i, item) in list.enumerated() where item.objectValue == nil { problems.add(.invalid("\(key)[\(i)]: expected an object")) }
        return Array(list.enumerated())
    }

    static func string(_ json: JSONValue?, _ here: String) throws(ConfigurationError) -> String {
        guard let text = json?.stringValue else { throw .invalid(json == nil ? "\(here): required" : "\(here): expected a string") }
        return text
    }

    static func integer(_ json: JSONValue, _ here: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let number = json.intValue, range.contains(number) else {
            throw .invalid("\(here): expected an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    private static func bool(_ json: JSONValue, _ here: String) throws(ConfigurationError) -> Bool {
        guard let value = json.boolValue else { throw .invalid("\(here): expected true or false") }
        return value
    }

    private static func rate(_ json: JSONValue, _ here: String) throws(ConfigurationError) -> Double {
        guard let rate = json.numberValue, rate > 0, rate <= 1000 else {
            throw .invalid("\(here): expected a number of advances per second in (0, 1000]")
        }
        return rate
    }

    private static func resolve(_ path: String, _ base: String) -> String {
        path.hasPrefix("/") ? path : base + "/" + path
    }
}
