/// Where the node's reader is in the log, and whether what it applied is fresh
/// (protocol/CLUSTER.md §3.3): fresh once it has applied every entry the stream held when the
/// reader (re)connected — the stream's last id, looked up first — however busy the log is;
/// stale from the first failed read until then.
public struct ReaderPosition: Sendable {
    /// The last entry read (applied, or skipped alike by every node).
    public private(set) var position: LogPosition
    /// True from catching up until the next failed read.
    public private(set) var fresh = false
    /// When the reader went from fresh to failing (nil while fresh, or before the first catch-up).
    public private(set) var cutOffSince: ClusterInstant?
    /// True once the reader caught up the first time (the node serves from then on).
    public private(set) var caughtUpOnce = false
    /// The stream's last id as of the reader's (re)connection; nil: not looked up yet.
    private var target: LogPosition?

    public init(after position: LogPosition) {
        self.position = position
    }

    /// False while the node cannot read the log (after a failed read, until caught up again).
    /// Before the first catch-up the node is not serving, and counts as reachable.
    public var reachable: Bool { fresh || !caughtUpOnce && cutOffSince == nil }

    /// The reader (re)connected and found the stream's last entry at `last` (nil: empty).
    mutating func connected(last: LogPosition?) -> Bool {
        target = last ?? .start
        return catchUpIfThere()
    }

    /// `entry` was read (in order): the position moves on. False for an entry at or before the
    /// position (read twice: ignored).
    mutating func read(_ entry: LogPosition) -> Bool {
        guard entry > position else { return false }
        position = entry
        return true
    }

    /// True when this read made the reader fresh.
    mutating func catchUpIfThere() -> Bool {
        guard let target, position >= target else { return false }
        return caughtUp()
    }

    /// A read ended with nothing new (a `BLOCK` that timed out): caught up. True when that made
    /// the reader fresh.
    public mutating func caughtUp() -> Bool {
        caughtUpOnce = true
        guard !fresh else { return false }
        fresh = true
        cutOffSince = nil
        return true
    }

    /// A read failed at `now`: true when that made the reader stale.
    public mutating func failed(at now: ClusterInstant) -> Bool {
        target = nil
        guard fresh || cutOffSince == nil else { return false }
        fresh = false
        cutOffSince = now
        return true
    }
}
