import RiveSyncCore
import Synchronization

/// Command numbers unique across a cluster without a round trip per command
/// (protocol/CLUSTER.md §2.5): `counter × 4096 + slot`, where the node's slot comes from Redis
/// at each start and the counter rises above every number read from the log.
public final class ClusterCommandNumbers: Sendable {
    /// How many slots there are (numbers of one node are `slot` modulo this).
    public static let slots: UInt64 = 4096
    public let slot: UInt64
    private let counter = Atomic<UInt64>(0)

    /// Numbers of `slot` (taken modulo `slots`).
    public init(slot: UInt64) { self.slot = slot % Self.slots }

    public func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue * Self.slots + slot
    }

    /// Numbers of consecutive counter values: this node's next numbers, `slots` apart.
    public func next(count: Int) -> [UInt64] {
        let last = counter.add(UInt64(count), ordering: .relaxed).newValue
        return ((last - UInt64(count) + 1)...last).map { $0 * Self.slots + slot }
    }

    public func ensure(above highest: UInt64) {
        let least = highest / Self.slots
        var current = counter.load(ordering: .relaxed)
        while current < least {
            let (exchanged, original) = counter.compareExchange(expected: current, desired: least, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
