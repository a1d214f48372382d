import RiveSyncCore

/// The requests the dispatcher routed to a worker and its host has not run yet, first in
/// first out (`WorkerShell.route`): a ring of slots, grown by doubling and never shrunk, each
/// event moved in and moved out (never copied).
struct RoutedRequests {
    /// A power of two slots (or none), `count` of them filled from `head` on, wrapping.
    private var slots: [WorkerEvent?] = []
    private var head = 0
    private(set) var count = 0

    /// Adds `event` after every event added before it.
    mutating func append(_ event: consuming WorkerEvent) {
        if count == slots.count { grow() }
        slots[(head + count) & (slots.count - 1)] = consume event
        count += 1
    }

    /// The first event added and not yet removed, removed; nil when none is left.
    mutating func removeFirst() -> WorkerEvent? {
        guard count != 0 else { return nil }
        let event = slots[head].take()
        head = (head + 1) & (slots.count - 1)
        count -= 1
        return event
    }

    /// Twice the slots (four at first), the events moved to the start in order.
    private mutating func grow() {
        var larger = [WorkerEvent?](repeating: nil, count: max(4, slots.count * 2))
        for position in 0..<count { larger[position] = slots[(head + position) & (slots.count - 1)].take() }
        slots = larger
        head = 0
    }
}
