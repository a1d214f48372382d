import RiveSyncCore

/// The timers a worker core asked for (`schedule`) and its host has not run yet, earliest
/// first (by deadline, then in the order asked).
///
/// The shell hands its host one closure per timer that holds only the shell, so making it
/// allocates nothing (a closure that also held the timer allocated its context: one per
/// advance); when one fires, the earliest timer waiting here runs. That one is always due: by
/// the time `n` of the host's closures have fired, `n` timers were due (each closure's own),
/// and only `n - 1` were taken before.
struct WorkerTimers {
    private struct Entry {
        var at: UInt64
        var order: UInt64
        var timer: WorkerTimer

        func precedes(_ other: Entry) -> Bool { (at, order) < (other.at, other.order) }
    }

    /// A binary min-heap of the entries.
    private var heap: [Entry] = []
    private var asked: UInt64 = 0

    /// Keeps `timer`, due at `at` (the daemon clock's nanoseconds).
    mutating func add(_ timer: WorkerTimer, at: UInt64) {
        asked += 1
        heap.append(Entry(at: at, order: asked, timer: timer))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Takes the earliest timer, or nil when none waits.
    mutating func takeEarliest() -> WorkerTimer? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let earliest = heap.removeLast().timer
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            let right = left + 1
            let first = right < heap.count && heap[right].precedes(heap[left]) ? right : left
            guard heap[first].precedes(heap[parent]) else { break }
            heap.swapAt(first, parent)
            parent = first
        }
        return earliest
    }
}
