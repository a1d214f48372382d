import RiveSyncModel

extension WorkerCore {
    /// A target's latest batches, oldest first, at most a limit (`historyBatches`), kept as a
    /// ring: once full, the newest replaces the oldest in place. (An array trimmed with
    /// `removeFirst` moved every other entry for each batch once a target had its
    /// `historyBatches`, 1,024 by default: ~110 KB per batch.)
    struct BatchHistory {
        private var entries: [HistoryEntry] = []
        /// The oldest entry's position in `entries` (0 until the ring is full).
        private var oldest = 0

        /// The entries, oldest first.
        var ordered: [HistoryEntry] { Array(entries[oldest...] + entries[..<oldest]) }

        /// The oldest entry kept.
        var first: HistoryEntry? { entries.isEmpty ? nil : entries[oldest] }

        /// The view model the newest entry recorded for `instance`, if its batch set it.
        func viewModel(lastSetOn instance: InstanceID) -> String? {
            guard !entries.isEmpty else { return nil }
            return entries[(oldest + entries.count - 1) % entries.count].viewModel(setOn: instance)
        }

        /// Keeps `entry` as the newest, dropping the oldest while more than `limit` are kept
        /// (taken, not copied: a batch and its frame hold some ten references).
        mutating func append(_ entry: consuming HistoryEntry, limit: Int) {
            if entries.count > limit || (oldest != 0 && entries.count < limit) {
                // The limit changed since the ring filled: laid out again, oldest first.
                entries = Array(ordered.suffix(limit))
                oldest = 0
            }
            guard limit > 0 else { return }
            guard entries.count == limit else { return entries.append(entry) }
            entries[oldest] = entry
            oldest = (oldest + 1) % limit
        }
    }
}
