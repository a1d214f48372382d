/// Timers a shell keeps itself, so that many of them share one wake-up of its clock.
///
/// A worker sets one timer per advance of each auto target (6,000 a second at 100 rooms
/// advancing 60 times a second). Given to the clock one by one, each is a timer of the
/// system's own and a block to queue when it fires; kept here, the clock is asked for a
/// wake-up only when a timer is due before every wake-up already asked for, and one wake-up
/// hands out every timer due by then.
public struct TimerSchedule<Timer> {
    private struct Entry {
        var at: UInt64
        var order: UInt64
        var timer: Timer

        func precedes(_ other: Entry) -> Bool { at < other.at || (at == other.at && order < other.order) }
    }

    /// A binary min-heap by deadline, then by the order the timers were set.
    private var heap: [Entry] = []
    private var added: UInt64 = 0
    /// The earliest wake-up asked for that has not come yet.
    private var wake: UInt64?

    public init() {}

    /// Number of timers set and not yet handed out.
    public var count: Int { heap.count }

    /// Sets `timer` for `at`. Returns the time to ask the clock for a wake-up at, or nil when
    /// a wake-up already asked for comes no later.
    public mutating func add(_ timer: Timer, at: UInt64) -> UInt64? {
        added &+= 1
        push(Entry(at: at, order: added, timer: timer))
        if let wake, wake <= at { return nil }
        wake = at
        return at
    }

    /// A wake-up asked for at `wokenFor` came at `now`: the timers due by `now`, by deadline
    /// and then in the order they were set, and the time of the next wake-up to ask for, if
    /// one is needed.
    public mutating func wakeUp(for wokenFor: UInt64, now: UInt64) -> (due: [Timer], next: UInt64?) {
        if let wake, wake <= max(wokenFor, now) { self.wake = nil }
        var due: [Timer] = []
        while let first = heap.first, first.at <= now { due.append(pop().timer) }
        guard let first = heap.first, wake.map({ first.at < $0 }) ?? true else { return (due, nil) }
        wake = first.at
        return (due, first.at)
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() -> Entry {
        let first = heap[0]
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { return first }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
