import RiveSyncModel

/// One entry of a token's `scopes`: permissions on the targets a pattern matches, under path
/// prefixes compared segment by segment (`@Theme` covers `@Theme` and `@Theme/background`,
/// not `@Themes`). The empty prefix is the whole target.
public struct Scope: Sendable, Hashable {
    public var permissions: Set<Permission> { didSet { bits = Permission.bits(of: permissions) } }
    public var targets: TargetPattern
    public var prefixes: [[Substring]]
    /// `permissions` one bit each: a request's check tests a bit instead of hashing a name.
    private var bits: UInt16

    public init(permissions: Set<Permission>, targets: TargetPattern, prefixes: [[Substring]]) {
        self.permissions = permissions
        self.targets = targets
        self.prefixes = prefixes
        bits = Permission.bits(of: permissions)
    }

    /// Whether `permissions` holds `permission`.
    func gives(_ permission: Permission) -> Bool { bits & permission.bit != 0 }

    /// Whether this scope gives `permission` on `target` for a path split into `segments`
    /// (empty segments: the whole target).
    public func allows(_ permission: Permission, on target: String, segments: [Substring]) -> Bool {
        guard gives(permission), targets.matches(target) else { return false }
        return covers(segments)
    }

    /// Whether one of the prefixes covers a path split into `segments`.
    func covers(_ segments: [Substring]) -> Bool {
        prefixes.contains { prefix in prefix.count <= segments.count && zip(prefix, segments).allSatisfy { $0 == $1 } }
    }

    /// Whether the scope covers every path of the targets it names.
    var coversWholeTargets: Bool { prefixes.contains { $0.isEmpty } }
}

/// Everything one identity may do: the union of its scopes.
public struct Grants: Sendable, Hashable {
    public var scopes: [Scope]
    /// Who the grants were looked up for: a token's name, or anonymous (PROTOCOL.md §15 scopes
    /// presence keys by it; `owned(by:)` sets it).
    public var presenceOwner = PresenceOwner.anonymous

    /// Every permission on every target (the demo's and the default anonymous grants).
    public static let everything = Grants(scopes: [
        Scope(permissions: [.read, .write, .fire, .seePresence, .publishPresence], targets: .any, prefixes: [[]]),
        Scope(permissions: [.create, .load, .metrics], targets: .any, prefixes: [[]]),
    ])

    public init(scopes: [Scope]) { self.scopes = scopes }

    /// A daemon-wide permission (`create`, `load`, `metrics`).
    public func allows(_ permission: Permission) -> Bool {
        scopes.contains { $0.gives(permission) }
    }

    /// `permission` on `target` at `path` ("" = the whole target). A path that starts at an
    /// instance id (`#17/x`) can reach any instance of the file, so it needs the permission on
    /// every target (`*`) as a whole.
    /// The path is split only when a scope that could allow it has path prefixes.
    public func allows(_ permission: Permission, on target: String, at path: String) -> Bool {
        allows(permission, on: target, text: path) { Self.segments(path) }
    }

    /// `permission` on `target` at a path parsed already (a request's): its segments are
    /// compared as they are.
    public func allows(_ permission: Permission, on target: String, at path: ParsedPath) -> Bool {
        allows(permission, on: target, text: path.text) { path.text.isEmpty ? [] : path.segments }
    }

    /// `allows(_:on:at:)` for the path written `text`, split by `segments` when a scope has
    /// path prefixes.
    private func allows(_ permission: Permission, on target: String, text: String, segments split: () -> [Substring]) -> Bool {
        if text.utf8.first == UInt8(ascii: "#") {
            return scopes.contains { $0.targets == .any && $0.allows(permission, on: target, segments: []) }
        }
        var segments: [Substring]?
        return scopes.contains { scope in
            guard scope.gives(permission), scope.targets.matches(target) else { return false }
            if scope.coversWholeTargets { return true }
            if segments == nil { segments = split() }
            return scope.covers(segments!)
        }
    }

    /// `permission` at `path` of `target` or somewhere under it.
    public func allowsWithin(_ permission: Permission, on target: String, at path: String) -> Bool {
        allowsWithin(permission, on: target, segments: Self.segments(path))
    }

    /// `permission` at a path parsed already (a request's) of `target` or somewhere under it.
    public func allowsWithin(_ permission: Permission, on target: String, at path: ParsedPath) -> Bool {
        allowsWithin(permission, on: target, segments: path.text.isEmpty ? [] : path.segments)
    }

    private func allowsWithin(_ permission: Permission, on target: String, segments: [Substring]) -> Bool {
        scopes.contains { scope in
            scope.gives(permission) && scope.targets.matches(target)
                && scope.prefixes.contains { prefix in zip(prefix, segments).allSatisfy { $0 == $1 } }
        }
    }

    /// `permission` on some path of `target`.
    public func allowsSomewhere(_ permission: Permission, on target: String) -> Bool {
        scopes.contains { $0.gives(permission) && !permission.isDaemonWide && $0.targets.matches(target) }
    }

    /// Whether a subscription to `paths` of `target` (nil = the whole target) is allowed:
    /// every path must be readable, and a whole-target subscription needs read on the whole
    /// target (a path-limited reader must name its paths, so batches are filtered to them).
    public func allowsSubscription(to target: String, paths: [String]?) -> Bool {
        (paths ?? [""]).allSatisfy { allows(.read, on: target, at: $0) }
    }

    /// A path's segments, as scopes compare them (none for the whole target).
    public static func segments(_ path: String) -> [Substring] {
        path.isEmpty ? [] : path.split(separator: "/", omittingEmptySubsequences: false)
    }

    /// These grants as looked up for `owner` (a token's name scopes its presence keys).
    public func owned(by owner: PresenceOwner) -> Grants {
        var grants = self
        grants.presenceOwner = owner
        return grants
    }
}
