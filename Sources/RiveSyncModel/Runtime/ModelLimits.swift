/// Limits the model enforces on every operation. Never unlimited; the daemon sets them from
/// its configuration.
public struct ModelLimits: Sendable, Hashable {
    /// Items in one list.
    public var maxListLength: Int
    /// UTF-8 bytes in one string value.
    public var maxStringBytes: Int
    /// Live instances in one file.
    public var maxInstances: Int
    /// Segments in one path.
    public var maxPathSegments: Int
    /// Operations waiting in one target's queue.
    public var maxQueuedCommands: Int

    public init(
        maxListLength: Int = 10_000, maxStringBytes: Int = 64 << 10, maxInstances: Int = 1_000_000,
        maxPathSegments: Int = 32, maxQueuedCommands: Int = 1_000_000
    ) {
        self.maxListLength = maxListLength
        self.maxStringBytes = maxStringBytes
        self.maxInstances = maxInstances
        self.maxPathSegments = maxPathSegments
        self.maxQueuedCommands = maxQueuedCommands
    }
}

/// What an advance does with several writes to one property.
public enum CoalescingPolicy: Sendable, Hashable {
    /// Within one advance, only the last `set` of a value property is kept in the batch, at
    /// the position of that last write. Fires, list edits, binds and nested replacements are
    /// never coalesced.
    case latestValue
    /// Every applied write is its own effect.
    case none
}
