/// The proposals in flight by ticket: what each answers once the log has (`Waiter`).
///
/// A ticket names its slot in its low `slotBits` bits, so the log's answer finds its waiter
/// without hashing (a dictionary by ticket hashed it twice per proposal); the bits above
/// count the tickets handed out, so no two tickets are alike. A ticket holds its slot from
/// `newTicket` until its waiter is removed, or `release` gives back one never proposed.
struct Proposals {
    /// Bits of a ticket that name its slot: up to 2^24 proposals in flight per worker.
    static let slotBits = 24

    private struct Entry {
        /// The ticket holding the slot (0: free).
        var ticket: UInt64
        var waiter: Waiter?
    }

    private var entries: [Entry] = []
    private var free: [Int] = []
    private var issued: UInt64 = 0
    /// How many waiters wait.
    private(set) var count = 0

    /// A ticket never handed out, holding a slot.
    mutating func newTicket() -> LogTicket {
        issued += 1
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
        } else {
            slot = entries.count
            precondition(slot < 1 << Self.slotBits, "more proposals in flight than tickets can name")
            entries.append(Entry(ticket: 0))
        }
        let ticket = issued << Self.slotBits | UInt64(slot)
        entries[slot].ticket = ticket
        return LogTicket(ticket)
    }

    /// `waiter` waits for the answer to `ticket` (from `newTicket`, not used before).
    mutating func wait(_ waiter: consuming Waiter, on ticket: LogTicket) {
        let slot = Self.slot(of: ticket)
        precondition(entries[slot].ticket == ticket.rawValue && entries[slot].waiter == nil, "\(ticket) is not free to wait on")
        entries[slot].waiter = waiter
        count += 1
    }

    /// The waiter of `ticket`, removed, its slot free again; nil if none waits under it.
    mutating func remove(_ ticket: LogTicket) -> Waiter? {
        let slot = Self.slot(of: ticket)
        guard slot < entries.count, entries[slot].ticket == ticket.rawValue, let waiter = entries[slot].waiter.take() else {
            return nil
        }
        count -= 1
        entries[slot].ticket = 0
        free.append(slot)
        return waiter
    }

    /// Gives back a ticket that no waiter waited on (a claim refused before its proposal).
    mutating func release(_ ticket: LogTicket) {
        let slot = Self.slot(of: ticket)
        guard slot < entries.count, entries[slot].ticket == ticket.rawValue, entries[slot].waiter == nil else { return }
        entries[slot].ticket = 0
        free.append(slot)
    }

    /// Every waiter, in slot order.
    var waiters: some Sequence<Waiter> { entries.lazy.compactMap(\.waiter) }

    /// Removes every waiter and returns them (tickets not proposed yet keep their slots).
    mutating func removeAll() -> [Waiter] {
        var removed: [Waiter] = []
        for slot in entries.indices {
            guard let waiter = entries[slot].waiter.take() else { continue }
            removed.append(waiter)
            entries[slot].ticket = 0
            free.append(slot)
        }
        count = 0
        return removed
    }

    private static func slot(of ticket: LogTicket) -> Int { Int(truncatingIfNeeded: ticket.rawValue & (1 << slotBits - 1)) }
}
