import RiveSyncJSON
import RiveSyncToolSupport

/// The daemon's settings from `RIVESYNC_*` environment variables: one variable per key of a
/// configuration file that is not inside a list, named after its key path in upper snake case
/// (`listen.port` → `RIVESYNC_LISTEN_PORT`, `limits.maxMessageBytes` →
/// `RIVESYNC_LIMITS_MAX_MESSAGE_BYTES`, `files` → `RIVESYNC_FILES`). A variable overrides its
/// key in the configuration file (or the demo's setting); a flag overrides the variable: file <
/// environment < flags. A variable inside a section (`RIVESYNC_AUTH_TOKENS_FILE`) sets that key
/// of the section, and the section's other keys stay as the file has them.
public struct ConfigurationEnvironment: Sendable {
    /// One variable that sets a key.
    public struct Setting: Sendable, Hashable {
        /// `RIVESYNC_LISTEN_PORT`.
        public let variable: String
        /// `listen.port`.
        public let keyPath: String
        /// The variable's value, as given.
        public let value: String
    }

    /// The variables set, sorted by name.
    public let settings: [Setting]
    /// `RIVESYNC_*` variables set that are no setting of the daemon nor a variable of another
    /// RiveSync tool (`otherTools`): likely misspelt, reported by `--check-config` and logged.
    public let unknown: [String]

    /// Every variable and the key path it sets, sorted by variable.
    public static let variables: [(variable: String, keyPath: String)] = {
        let sectionKeys = Set(ConfigurationKeys.sections.keys)
        return ConfigurationKeys.keyPaths.filter { !$0.contains("[]") && !sectionKeys.contains($0) }
            .map { (variable(for: $0), $0) }.sorted { $0.variable < $1.variable }
    }()

    /// Keys whose value is text: the variable's value is taken as it is. The others' values are
    /// JSON (`8080`, `true`, `["https://example.com"]`); a value that is not JSON is taken as text,
    /// which the key's check then refuses with its reason (`loopback` for `auth.allowAnonymous`
    /// is text, as the key wants).
    static let textKeys: Set<String> = [
        "listen.host", "tls.certificate", "tls.key", "stateDirectory", "durability", "logLevel", "logFormat", "auth.tokensFile",
        "cluster.redis", "cluster.node", "cluster.prefix", "cluster.url",
    ]

    /// `RIVESYNC_*` variables that other RiveSync tools read (the command line, the clients, the
    /// build and the tests): never reported as unknown.
    static let otherTools: Set<String> = [
        "RIVESYNC_URL", "RIVESYNC_TOKEN", "RIVESYNC_DAEMON", "RIVESYNC_CLIENT_TRANSPORT", "RIVESYNC_RIVE_RUNTIME",
        "RIVESYNC_RIVE_RUNTIME_PATH", "RIVESYNC_FUZZ", "RIVESYNC_STORM_SEED", "RIVESYNC_SCREENSHOTS",
    ]

    /// The variable an unknown one most likely meant (`RIVESYNC_LISTEN_PROT` →
    /// `RIVESYNC_LISTEN_PORT`).
    public static func suggestion(for unknown: String) -> String? {
        NearestName.suggestion(for: unknown, among: variables.map(\.variable))
    }

    /// The settings among `environment`'s variables.
    public init(_ environment: [String: String]) {
        let known = Dictionary(uniqueKeysWithValues: Self.variables.map { ($0.variable, $0.keyPath) })
        var settings: [Setting] = []
        var unknown: [String] = []
        for (name, value) in environment where name.hasPrefix("RIVESYNC_") {
            if let keyPath = known[name] {
                settings.append(Setting(variable: name, keyPath: keyPath, value: value))
            } else if !Self.otherTools.contains(name) {
                unknown.append(name)
            }
        }
        self.settings = settings.sorted { $0.variable < $1.variable }
        self.unknown = unknown.sorted()
    }

    /// `RIVESYNC_` and the key path in upper snake case: a word starts at each capital that
    /// follows a small letter or digit, or that starts a word after an acronym (`maxJSONDepth` →
    /// `MAX_JSON_DEPTH`); a dot is a word break.
    public static func variable(for keyPath: String) -> String {
        var name = "RIVESYNC_"
        let characters = Array(keyPath)
        for (i, character) in characters.enumerated() {
            if character == "." {
                name += "_"
                continue
            }
            if character.isUppercase, i > 0 {
                let previous = characters[i - 1]
                let next = i + 1 < characters.count ? characters[i + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) { name += "_" }
            }
            name += character.uppercased()
        }
        return name
    }

    /// `json` (a configuration object) with every setting's key set to its value.
    func applied(to json: JSONValue) -> JSONValue {
        settings.reduce(json) { result, setting in
            let value: JSONValue
            if Self.textKeys.contains(setting.keyPath) {
                value = .string(setting.value)
            } else {
                value = (try? JSONParser().parse(setting.value)) ?? .string(setting.value)  // not JSON: the key's check says why
            }
            return Self.setting(setting.keyPath.split(separator: ".").map(String.init)[...], to: value, in: result)
        }
    }

    /// `json` with the member at `path` set to `value` (a member that is not an object on the
    /// way is replaced by one, so the key's own check reports a section that is not an object).
    private static func setting(_ path: ArraySlice<String>, to value: JSONValue, in json: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        var members = json.objectValue ?? []
        let inner = path.count == 1 ? value : setting(path.dropFirst(), to: value, in: members.first { $0.0 == key }?.1 ?? .object([]))
        if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = inner } else { members.append((key, inner)) }
        return .object(members)
    }

    /// `problems` with each line naming the variable its key came from (`attributed(_:)`).
    func attributed(_ problems: ConfigurationProblems) -> ConfigurationProblems {
        var result = ConfigurationProblems()
        for problem in problems.all {
            if settings.isEmpty { result.add(problem) } else { for line in problem.lines { result.add(.invalid(attributed(line))) } }
        }
        return result
    }

    /// A problem's line naming the variable its key came from (`listen.port (RIVESYNC_LISTEN_PORT):
    /// expected …`), or the line as it is when no setting is its key.
    func attributed(_ line: String) -> String {
        let setting = settings.filter {
            line.hasPrefix($0.keyPath + ":") || line.hasPrefix($0.keyPath + "[") || line.hasPrefix($0.keyPath + ".")
        }
        .max { $0.keyPath.count < $1.keyPath.count }
        guard let setting else { return line }
        let rest = line.dropFirst(setting.keyPath.count)
        let end = rest.firstIndex(of: ":") ?? rest.endIndex
        return setting.keyPath + rest[..<end] + " (\(setting.variable))" + rest[end...]
    }
}
