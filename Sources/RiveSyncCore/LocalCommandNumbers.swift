import Synchronization

/// Command numbers of one node: a counter (a cluster injects a shared allocator instead).
public final class LocalCommandNumbers: CommandNumbers {
    private let counter = Atomic<UInt64>(0)

    public init() {}

    public func next() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }

    /// Consecutive numbers.
    public func next(count: Int) -> [UInt64] {
        let last = counter.add(UInt64(count), ordering: .relaxed).newValue
        return Array((last - UInt64(count) + 1)...last)
    }

    public func ensure(above highest: UInt64) {
        var current = counter.load(ordering: .relaxed)
        while current < highest {
            let (exchanged, original) = counter.compareExchange(expected: current, desired: highest, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
