import RiveSyncJSON

extension DaemonConfiguration {
    /// The `inspector` section: whether the daemon serves its web pages (the inspector at `/`,
    /// the demo preview at `/preview.html`, the JavaScript client at `/rivesync.js`), and
    /// whether their editors are on. Off in a configuration file unless enabled; `--demo`
    /// turns it on with editors. What a page may change is still decided by its token's scopes:
    /// `readOnly` only keeps the pages from offering edits.
    public struct Inspector: Sendable, Hashable {
        /// Whether the pages are served (otherwise those paths are 404).
        public var enabled = false
        /// Whether the pages' editors are disabled.
        public var readOnly = true

        /// The default: not served.
        public init() {}

        /// Pages on or off, editors on or off.
        public init(enabled: Bool, readOnly: Bool) {
            self.enabled = enabled
            self.readOnly = readOnly
        }

        /// Reads `{"enabled": bool, "readOnly": bool}` (defaults `false`, `true`).
        init(json: JSONValue) throws(ConfigurationError) {
            guard json.objectValue != nil else { throw .invalid("inspector: expected an object") }
            var problems = ConfigurationProblems()
            problems.refuseUnknownKeys(of: json, section: "inspector", here: "inspector")
            try problems.throwIfAny()
            if let value = json["enabled"] {
                guard let flag = value.boolValue else { throw .invalid("inspector.enabled: expected true or false") }
                enabled = flag
            }
            if let value = json["readOnly"] {
                guard let flag = value.boolValue else { throw .invalid("inspector.readOnly: expected true or false") }
                readOnly = flag
            }
        }
    }
}
