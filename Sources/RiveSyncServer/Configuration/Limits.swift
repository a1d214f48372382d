import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// The daemon's limits: named settings with safe, finite defaults (PROTOCOL.md §12).
public struct Limits: Sendable, Hashable {
    public var maxMessageBytes = 1 << 20
    public var maxJSONDepth = 32
    public var maxSubscriptions = 256
    public var maxSendQueueBytes = 8 << 20
    public var socketSendBufferBytes = 256 << 10
    public var maxConnections = 10_000
    public var maxListLength = 10_000
    public var maxStringBytes = 64 << 10
    public var maxAssetBytes = 4 << 20
    public var maxCommandsPerSecond = 10_000
    public var maxInstancesPerFile = 1_000_000
    /// Batches kept per target for resuming subscribers.
    public var historyBatches = 1_024
    public var helloTimeoutSeconds = 10
    public var maxConnectionsPerAddress = 1_000
    public var maxPendingRequests = 64
    public var maxTargets = 10_000
    public var maxPageSize = 1_000
    /// Presence members per target, those in their grace period included (PROTOCOL.md §15).
    public var maxPresenceMembers = 256
    public var maxPresenceStateBytes = 1_024
    public var maxPresenceUpdatesPerSecond = 60
    public var presenceGraceSeconds = 10
    public var maxTransactionCommands = 256
    /// Bytes of a `.riv` file a client loads (in parts past `maxMessageBytes`, PROTOCOL.md §9).
    public var maxFileBytes = 64 << 20

    public init() {}

    /// One row of the settings table: name, what it limits, bounds, whether SIGHUP reloads it.
    public struct Setting: Sendable {
        public let name: String
        public let summary: String
        public let range: ClosedRange<Int>
        public let reloadable: Bool
        let keyPath: WritableKeyPath<Limits, Int> & Sendable
    }

    /// Every limit, in the order docs/CONFIGURATION.md lists them.
    public static let settings: [Setting] = [
        Setting(
            name: "maxMessageBytes", summary: "bytes in one incoming message (close 1009 past it)", range: 256...(64 << 20),
            reloadable: false, keyPath: \.maxMessageBytes),
        Setting(
            name: "maxJSONDepth", summary: "nesting depth of one message (error too_deep)", range: 4...256, reloadable: true,
            keyPath: \.maxJSONDepth),
        Setting(
            name: "maxSubscriptions", summary: "subscriptions per connection", range: 1...100_000, reloadable: true,
            keyPath: \.maxSubscriptions),
        Setting(
            name: "maxSendQueueBytes", summary: "send backlog per connection before catch-up", range: 64 << 10...(1 << 30),
            reloadable: false, keyPath: \.maxSendQueueBytes),
        Setting(
            name: "socketSendBufferBytes", summary: "kernel send buffer per connection (SO_SNDBUF)", range: 4 << 10...(64 << 20),
            reloadable: false, keyPath: \.socketSendBufferBytes),
        Setting(
            name: "maxConnections", summary: "simultaneous connections, counted from accept (HTTP 503 past it)", range: 1...1_000_000,
            reloadable: false, keyPath: \.maxConnections),
        Setting(
            name: "maxListLength", summary: "items in one list property", range: 1...10_000_000, reloadable: true, keyPath: \.maxListLength),
        Setting(
            name: "maxStringBytes", summary: "UTF-8 bytes in one string value", range: 16...(16 << 20), reloadable: true,
            keyPath: \.maxStringBytes),
        Setting(
            name: "maxAssetBytes", summary: "bytes in one uploaded image, font or blob", range: 1024...(256 << 20), reloadable: true,
            keyPath: \.maxAssetBytes),
        Setting(
            name: "maxFileBytes", summary: "bytes in one .riv file a client loads (in parts)", range: 1024...(1 << 30),
            reloadable: true, keyPath: \.maxFileBytes),
        Setting(
            name: "maxCommandsPerSecond", summary: "requests per second per connection", range: 1...10_000_000, reloadable: true,
            keyPath: \.maxCommandsPerSecond),
        Setting(
            name: "maxInstancesPerFile", summary: "live instances in one file", range: 16...100_000_000, reloadable: true,
            keyPath: \.maxInstancesPerFile),
        Setting(
            name: "historyBatches", summary: "batches kept per target for resume", range: 16...1_000_000, reloadable: false,
            keyPath: \.historyBatches),
        Setting(
            name: "helloTimeoutSeconds", summary: "seconds from connect to hello (close 1008 past it)", range: 1...3_600, reloadable: true,
            keyPath: \.helloTimeoutSeconds),
        Setting(
            name: "maxConnectionsPerAddress", summary: "sockets from one address, counted from accept (HTTP 503 past it)",
            range: 1...1_000_000, reloadable: false, keyPath: \.maxConnectionsPerAddress),
        Setting(
            name: "maxPendingRequests", summary: "requests per connection read and not yet handled (reading pauses)", range: 1...100_000,
            reloadable: false, keyPath: \.maxPendingRequests),
        Setting(
            name: "maxTargets", summary: "targets in the daemon (error limit_exceeded)", range: 1...10_000_000, reloadable: true,
            keyPath: \.maxTargets),
        Setting(
            name: "maxPageSize", summary: "entries in one listTargets reply (next pages on)", range: 1...1_000_000, reloadable: true,
            keyPath: \.maxPageSize),
        Setting(
            name: "maxPresenceMembers", summary: "presence members of one target, grace included (error limit_exceeded)",
            range: 1...100_000, reloadable: true, keyPath: \.maxPresenceMembers),
        Setting(
            name: "maxPresenceStateBytes", summary: "bytes of one presence member's state, serialized (error limit_exceeded)",
            range: 16...(64 << 10), reloadable: true, keyPath: \.maxPresenceStateBytes),
        Setting(
            name: "maxPresenceUpdatesPerSecond", summary: "presence updates per second per member (error rate_limited)",
            range: 1...10_000, reloadable: true, keyPath: \.maxPresenceUpdatesPerSecond),
        Setting(
            name: "presenceGraceSeconds", summary: "seconds a member whose connection closed stays before it leaves",
            range: 1...3_600, reloadable: true, keyPath: \.presenceGraceSeconds),
        Setting(
            name: "maxTransactionCommands", summary: "commands in one transaction (error limit_exceeded)", range: 1...100_000,
            reloadable: true, keyPath: \.maxTransactionCommands),
    ]

    /// Reads `{"maxMessageBytes": …, …}`; unknown names and out-of-range values are errors.
    public init(json: JSONValue) throws(ConfigurationError) {
        guard let members = json.objectValue else { throw .invalid("limits: expected an object") }
        for (name, value) in members {
            guard let setting = Self.settings.first(where: { $0.name == name }) else {
                throw .invalid("limits.\(name): unknown limit (one of \(Self.settings.map(\.name).joined(separator: ", ")))")
            }
            guard let number = value.intValue, setting.range.contains(number) else {
                throw .invalid("limits.\(name): expected an integer in \(setting.range.lowerBound)...\(setting.range.upperBound)")
            }
            self[keyPath: setting.keyPath] = number
        }
    }

    /// The bounds of each target's presence.
    public var presence: PresenceLimits {
        PresenceLimits(
            maxMembers: maxPresenceMembers, maxStateBytes: maxPresenceStateBytes, maxUpdatesPerSecond: maxPresenceUpdatesPerSecond,
            graceNanoseconds: UInt64(presenceGraceSeconds) * 1_000_000_000)
    }

    /// The limits a client sees in `welcome`.
    public var wireLimits: [ServerMessage.Limit] {
        Self.settings.map { ServerMessage.Limit(name: $0.name, value: self[keyPath: $0.keyPath]) }
    }
}
