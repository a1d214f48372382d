/// The bounds of one target's presence (PROTOCOL.md §15). Never unlimited; the daemon sets
/// them from its configuration.
public struct PresenceLimits: Sendable, Hashable {
    /// Members of one target, those in their grace period included.
    public var maxMembers: Int
    /// UTF-8 bytes of one member's state, serialized.
    public var maxStateBytes: Int
    /// Updates one member may make per second (a bucket of this many, refilled at this rate).
    public var maxUpdatesPerSecond: Int
    /// How long a member whose connection closed stays before it leaves, in nanoseconds.
    public var graceNanoseconds: UInt64

    public init(maxMembers: Int = 256, maxStateBytes: Int = 1024, maxUpdatesPerSecond: Int = 60, graceNanoseconds: UInt64 = 10_000_000_000)
    {
        self.maxMembers = maxMembers
        self.maxStateBytes = maxStateBytes
        self.maxUpdatesPerSecond = maxUpdatesPerSecond
        self.graceNanoseconds = graceNanoseconds
    }

    /// The shortest and longest key a member may choose, in UTF-8 bytes.
    public static let keyBytes = 16...128
}
