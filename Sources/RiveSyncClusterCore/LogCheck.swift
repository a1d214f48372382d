/// The check after every read (protocol/CLUSTER.md §2.7), as a decision on what Redis holds:
/// the shell runs it as one script so that nothing changes between its reads.
public enum LogCheck {
    public enum Verdict: Hashable, Sendable {
        case ok
        case lost(LogLoss)
    }

    /// How many trims are recorded at most (`<prefix>:trims`).
    public static let recordedTrims = 64

    /// `epochMatches`: the stream's epoch is the node's. `after`: the last entry the node read
    /// (`start`: none). `first`: the first entry this read returned. `trims`: the highest entry
    /// each recorded trim deleted, newest first. `afterIsThere`: the stream still holds `after`.
    public static func verdict(
        epochMatches: Bool, after: LogPosition, first: LogPosition?, trims: [LogPosition], afterIsThere: Bool
    ) -> Verdict {
        guard epochMatches else { return .lost(.wentBack) }
        var afterTrimmed = false
        for (index, deleted) in trims.enumerated() {
            if deleted < after { break }
            afterTrimmed = true
            // A trim deleted an entry after `after` that this read does not return.
            if after < deleted, first.map({ deleted < $0 }) ?? true { return .lost(.behindTrim) }
            // Older trims are no longer recorded: one of them may have cut after this node.
            if index == trims.count - 1, trims.count >= recordedTrims { return .lost(.behindTrim) }
        }
        if after != .start, !afterTrimmed, !afterIsThere { return .lost(.wentBack) }
        return .ok
    }
}

/// Where the stream is trimmed when snapshots are stored (§2.7): below the lowest snapshot id
/// as it was at the previous store (one interval of slack for readers that lag), never above a
/// live pin of a starting node.
public enum LogTrim {
    /// Where to trim (`XTRIM MINID`, which keeps that entry): the previous trim point, lowered
    /// to the lowest live pin; nil: nothing to trim yet.
    public static func cut(previousPoint: LogPosition?, livePins: [LogPosition]) -> LogPosition? {
        guard let previousPoint else { return nil }
        return ([previousPoint] + livePins).min()
    }

    /// The trim point the next store uses: the lowest snapshot id now, when it is above the
    /// previous point.
    public static func nextPoint(previousPoint: LogPosition?, lowestSnapshot: LogPosition?) -> LogPosition? {
        guard let lowestSnapshot else { return previousPoint }
        guard let previousPoint else { return lowestSnapshot }
        return previousPoint < lowestSnapshot ? lowestSnapshot : previousPoint
    }
}
