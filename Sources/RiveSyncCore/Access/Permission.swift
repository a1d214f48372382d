/// What a scope can allow. `read`, `write` and `fire` apply to targets and paths;
/// `seePresence` and `publishPresence` to whole targets (PROTOCOL.md §15); `create`
/// (instances, state machines, publish, bind, attaching instances by id), `load`
/// (`loadFile`, `upload`) and `metrics` (`GET /metrics`) are daemon-wide.
public enum Permission: String, Sendable, CaseIterable {
    case read, write, fire, seePresence, publishPresence, create, load, metrics

    public var isDaemonWide: Bool { self == .create || self == .load || self == .metrics }

    /// Given per target, never under path prefixes (presence is a target's, not a path's).
    public var isPresence: Bool { self == .seePresence || self == .publishPresence }

    /// This permission's bit in a scope's set of them.
    var bit: UInt16 {
        switch self {
        case .read: 1 << 0
        case .write: 1 << 1
        case .fire: 1 << 2
        case .seePresence: 1 << 3
        case .publishPresence: 1 << 4
        case .create: 1 << 5
        case .load: 1 << 6
        case .metrics: 1 << 7
        }
    }

    /// The bits of a set of permissions.
    static func bits(of permissions: Set<Permission>) -> UInt16 { permissions.reduce(0) { $0 | $1.bit } }

    init(_ access: TargetAccess) {
        switch access {
        case .read: self = .read
        case .write: self = .write
        case .fire: self = .fire
        }
    }
}

/// The targets a scope names: every target (`*`), the names that start with a prefix
/// (`room-*`), or one name.
public enum TargetPattern: Sendable, Hashable {
    case any
    case prefix(String)
    case exact(String)

    public init(_ text: String) {
        if text == "*" {
            self = .any
        } else if text.hasSuffix("*") {
            self = .prefix(String(text.dropLast()))
        } else {
            self = .exact(text)
        }
    }

    public func matches(_ target: String) -> Bool {
        switch self {
        case .any: return true
        case .prefix(let prefix): return target.hasPrefix(prefix)
        case .exact(let name): return target == name
        }
    }
}
