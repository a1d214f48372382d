import RiveSyncJSON
import RiveSyncModel

/// What a scope can allow. `read`, `write` and `fire` apply to targets and paths;
/// `seePresence` and `publishPresence` to whole targets (PROTOCOL.md §15); `create`
/// (instances, state machines, publish, bind, attaching instances by id), `load`
/// (`loadFile`, `upload`) and `metrics` (`GET /metrics`) are daemon-wide.
enum Permission: String, Sendable, CaseIterable {
    case read, write, fire, seePresence, publishPresence, create, load, metrics

    var isDaemonWide: Bool { self == .create || self == .load || self == .metrics }

    /// Given per target, never under path prefixes (presence is a target's, not a path's).
    var isPresence: Bool { self == .seePresence || self == .publishPresence }
}

/// The targets a scope names: every target (`*`), the names that start with a prefix
/// (`room-*`), or one name.
enum TargetPattern: Sendable, Hashable {
    case any
    case prefix(String)
    case exact(String)

    init(_ text: String) {
        if text == "*" {
            self = .any
        } else if text.hasSuffix("*") {
            self = .prefix(String(text.dropLast()))
        } else {
            self = .exact(text)
        }
    }

    func matches(_ target: String) -> Bool {
        switch self {
        case .any: return true
        case .prefix(let prefix): return target.hasPrefix(prefix)
        case .exact(let name): return target == name
        }
    }
}

/// One entry of a token's `scopes`: permissions on the targets a pattern matches, under path
/// prefixes compared segment by segment (`@Theme` covers `@Theme` and `@Theme/background`,
/// not `@Themes`). The empty prefix is the whole target.
struct Scope: Sendable, Hashable {
    var permissions: Set<Permission>
    var targets: TargetPattern
    var prefixes: [[Substring]]

    init(permissions: Set<Permission>, targets: TargetPattern, prefixes: [[Substring]]) {
        self.permissions = permissions
        self.targets = targets
        self.prefixes = prefixes
    }

    /// The members of a scope object.
    static let keys = ["allow", "target", "paths"]

    /// Whether this scope gives `permission` on `target` for a path split into `segments`
    /// (empty segments: the whole target).
    func allows(_ permission: Permission, on target: String, segments: [Substring]) -> Bool {
        guard permissions.contains(permission), targets.matches(target) else { return false }
        return prefixes.contains { prefix in prefix.count <= segments.count && zip(prefix, segments).allSatisfy { $0 == $1 } }
    }

    /// Reads one entry: `{"allow": ["read", "write"], "target": "character", "paths": ["@Theme"]}`
    /// or a daemon-wide `{"allow": ["create", "load", "metrics"]}`.
    init(json: JSONValue, here: String) throws(ConfigurationError) {
        guard let members = json.objectValue else { throw .invalid("\(here): expected an object") }
        for (key, _) in members where !Self.keys.contains(key) {
            throw .invalid("\(here): unknown key '\(key)'")
        }
        guard let allow = json["allow"]?.arrayValue, !allow.isEmpty else { throw .invalid("\(here).allow: expected a non-empty array") }
        permissions = []
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
            targets = .any
            prefixes = [[]]
            return
        }
        guard !permissions.contains(where: \.isDaemonWide) else {
            throw .invalid("\(here): give create, load and metrics in an entry of their own")
        }
        guard let target = json["target"]?.stringValue, !target.isEmpty else {
            throw .invalid("\(here).target: expected a target name or pattern")
        }
        targets = TargetPattern(target)
        guard let paths = json["paths"] else {
            prefixes = [[]]
            return
        }
        guard !permissions.contains(where: \.isPresence) else {
            throw .invalid("\(here): seePresence and publishPresence apply to whole targets; give them without paths")
        }
        guard let list = paths.arrayValue, !list.isEmpty else {
            throw .invalid("\(here).paths: expected a non-empty array of path prefixes")
        }
        prefixes = try list.map { (item) throws(ConfigurationError) in try Self.prefix(item, "\(here).paths") }
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

/// Everything one identity may do: the union of its scopes.
struct Grants: Sendable, Hashable {
    var scopes: [Scope]
    /// Who the grants were looked up for: a token's name, or anonymous (PROTOCOL.md §15 scopes
    /// presence keys by it; `DispatcherEnvironment.grants(of:)` sets it).
    var presenceOwner = PresenceOwner.anonymous

    /// Every permission on every target (the demo's and the default anonymous grants).
    static let everything = Grants(scopes: [
        Scope(permissions: [.read, .write, .fire, .seePresence, .publishPresence], targets: .any, prefixes: [[]]),
        Scope(permissions: [.create, .load, .metrics], targets: .any, prefixes: [[]]),
    ])

    /// Reads a `scopes` array.
    init(json: JSONValue, here: String) throws(ConfigurationError) {
        guard let list = json.arrayValue else { throw .invalid("\(here): expected an array of scopes") }
        scopes = try list.enumerated().map { (i, item) throws(ConfigurationError) in try Scope(json: item, here: "\(here)[\(i)]") }
    }

    init(scopes: [Scope]) { self.scopes = scopes }

    /// A daemon-wide permission (`create`, `load`, `metrics`).
    func allows(_ permission: Permission) -> Bool {
        scopes.contains { $0.permissions.contains(permission) }
    }

    /// `permission` on `target` at `path` ("" = the whole target). A path that starts at an
    /// instance id (`#17/x`) can reach any instance of the file, so it needs the permission on
    /// every target (`*`) as a whole.
    func allows(_ permission: Permission, on target: String, at path: String) -> Bool {
        let segments = Self.segments(path)
        if segments.first?.hasPrefix("#") ?? false {
            return scopes.contains { $0.targets == .any && $0.allows(permission, on: target, segments: []) }
        }
        return scopes.contains { $0.allows(permission, on: target, segments: segments) }
    }

    /// `permission` at `path` of `target` or somewhere under it.
    func allowsWithin(_ permission: Permission, on target: String, at path: String) -> Bool {
        let segments = Self.segments(path)
        return scopes.contains { scope in
            scope.permissions.contains(permission) && scope.targets.matches(target)
                && scope.prefixes.contains { prefix in zip(prefix, segments).allSatisfy { $0 == $1 } }
        }
    }

    /// `permission` on some path of `target`.
    func allowsSomewhere(_ permission: Permission, on target: String) -> Bool {
        scopes.contains { $0.permissions.contains(permission) && !permission.isDaemonWide && $0.targets.matches(target) }
    }

    /// Whether a subscription to `paths` of `target` (nil = the whole target) is allowed:
    /// every path must be readable, and a whole-target subscription needs read on the whole
    /// target (a path-limited reader must name its paths, so batches are filtered to them).
    func allowsSubscription(to target: String, paths: [String]?) -> Bool {
        (paths ?? [""]).allSatisfy { allows(.read, on: target, at: $0) }
    }

    static func segments(_ path: String) -> [Substring] {
        path.isEmpty ? [] : path.split(separator: "/", omittingEmptySubsequences: false)
    }
}
