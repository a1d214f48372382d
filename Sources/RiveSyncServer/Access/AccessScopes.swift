import RiveSyncCore
import RiveSyncJSON

/// The configuration's reading of scopes (`Scope`, `Grants`: the rules themselves are the
/// core's, `RiveSyncCore/Access`).
extension Scope {
    /// The members of a scope object.
    static let keys = ["allow", "target", "paths"]

    /// Reads one entry: `{"allow": ["read", "write"], "target": "character", "paths": ["@Theme"]}`
    /// or a daemon-wide `{"allow": ["create", "load", "metrics"]}`.
    init(json: JSONValue, here: String) throws(ConfigurationError) {
        guard let members = json.objectValue else { throw .invalid("\(here): expected an object") }
        for (key, _) in members where !Self.keys.contains(key) {
            throw .invalid("\(here): unknown key '\(key)'")
        }
        guard let allow = json["allow"]?.arrayValue, !allow.isEmpty else { throw .invalid("\(here).allow: expected a non-empty array") }
        var permissions: Set<Permission> = []
        for item in allow {
            guard let permission = item.stringValue.flatMap(Permission.init(rawValue:)) else {
                throw .invalid("\(here).allow: expected some of \(Permission.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            permissions.insert(permission)
        }
        if permissions.allSatisfy(\.isDaemonWide) {
            guard json["target"] == nil, json["paths"] == nil else {
                throw .invalid("\(here): create, load and metrics are daemon-wide; give them without target and paths")
            }
            self.init(permissions: permissions, targets: .any, prefixes: [[]])
            return
        }
        guard !permissions.contains(where: \.isDaemonWide) else {
            throw .invalid("\(here): give create, load and metrics in an entry of their own")
        }
        guard let target = json["target"]?.stringValue, !target.isEmpty else {
            throw .invalid("\(here).target: expected a target name or pattern")
        }
        guard let paths = json["paths"] else {
            self.init(permissions: permissions, targets: TargetPattern(target), prefixes: [[]])
            return
        }
        guard !permissions.contains(where: \.isPresence) else {
            throw .invalid("\(here): seePresence and publishPresence apply to whole targets; give them without paths")
        }
        guard let list = paths.arrayValue, !list.isEmpty else {
            throw .invalid("\(here).paths: expected a non-empty array of path prefixes")
        }
        let prefixes = try list.map { (item) throws(ConfigurationError) in try Self.prefix(item, "\(here).paths") }
        self.init(permissions: permissions, targets: TargetPattern(target), prefixes: prefixes)
    }

    private static func prefix(_ json: JSONValue, _ here: String) throws(ConfigurationError) -> [Substring] {
        guard var text = json.stringValue else { throw .invalid("\(here): expected strings") }
        if text.hasSuffix("/") { text.removeLast() }
        let segments = Grants.segments(text)
        guard !segments.contains(where: \.isEmpty) else { throw .invalid("\(here): '\(text)' has an empty segment") }
        guard !(segments.first?.hasPrefix("#") ?? false) else {
            throw .invalid("\(here): '\(text)': instance-id paths (#id) are covered only by whole-target scopes on '*'")
        }
        return segments
    }
}

extension Grants {
    /// Reads a `scopes` array.
    init(json: JSONValue, here: String) throws(ConfigurationError) {
        guard let list = json.arrayValue else { throw .invalid("\(here): expected an array of scopes") }
        self.init(
            scopes: try list.enumerated().map { (i, item) throws(ConfigurationError) in try Scope(json: item, here: "\(here)[\(i)]") })
    }
}
