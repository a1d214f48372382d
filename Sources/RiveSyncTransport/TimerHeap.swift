/// Pending timers by deadline (a binary min-heap); equal deadlines in insertion order. The
/// service threads' hosted timers, and the daemon's worker shells' (which run the earliest of
/// theirs whenever one of their host's timers fires).
public struct TimerHeap<Work> {
    @usableFromInline
    struct Entry {
        @usableFromInline var at: UInt64
        @usableFromInline var order: UInt64
        @usableFromInline var work: Work

        @inlinable
        init(at: UInt64, order: UInt64, work: Work) {
            self.at = at
            self.order = order
            self.work = work
        }

        @inlinable
        func precedes(_ other: Entry) -> Bool { at != other.at ? at < other.at : order < other.order }
    }

    // Inlinable, so that another module's heap (the worker shell's) is specialized for its work.
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var inserted: UInt64 = 0

    public init() {}

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest deadline, nil when empty.
    var firstDeadline: UInt64? { entries.first?.at }

    /// Keeps `work`, due at `at` (moved in: a closure's context is not retained again).
    @inlinable
    public mutating func insert(_ work: consuming Work, at: UInt64) {
        inserted &+= 1
        entries.append(Entry(at: at, order: inserted, work: work))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest timer if it is due by `now`.
    @inlinable
    public mutating func popFirst(dueBy now: UInt64) -> Work? {
        guard !entries.isEmpty, entries[0].at <= now else { return nil }
        // The first entry is moved out (swapped to the end and removed), not copied: a copy
        // retained its work, and overwriting it released it again.
        entries.swapAt(0, entries.count - 1)
        let first = entries.removeLast()
        if entries.count > 1 {
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < entries.count, entries[left].precedes(entries[smallest]) { smallest = left }
                if right < entries.count, entries[right].precedes(entries[smallest]) { smallest = right }
                guard smallest != parent else { break }
                entries.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first.work
    }
}
