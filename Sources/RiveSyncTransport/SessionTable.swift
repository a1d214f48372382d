/// A service thread's sessions by id: open addressing with linear probing over a power-of-two
/// table at most half full, keyed by a multiplicative hash of the id.
///
/// A `send` finds each of its sessions here, so a lookup is on the path of every delivery; a
/// `Dictionary` hashed each id with SipHash (~125 instructions a lookup, ~10 lookups per set in
/// the rooms benchmark). Ids are never 0 (`ServerLoop.makeSessionID`), which marks a free slot.
/// Touched on the service thread only.
struct SessionTable {
    private var ids: [SessionID] = []
    private var sessions: [ServerSession?] = []
    /// Number of sessions held.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Every session held, in no particular order.
    var all: [ServerSession] { sessions.compactMap { $0 } }

    /// The session of `id`, or nil.
    subscript(id: SessionID) -> ServerSession? {
        slot(of: id).map { sessions[$0] } ?? nil
    }

    /// The session of `id` lent, not retained, or nil: the table holds it until `remove`, so
    /// it may be used (`_withUnsafeGuaranteedRef`) until then. A send looks up each of its
    /// sessions, and a retain is a locked instruction (bench/README.md, "Empty polls and
    /// retains").
    func lend(_ id: SessionID) -> Unmanaged<ServerSession>? {
        guard let slot = slot(of: id) else { return nil }
        return sessions.withUnsafeBufferPointer { held in
            held.withMemoryRebound(to: Unmanaged<ServerSession>?.self) { $0[slot] }
        }
    }

    /// Where `id` is held, or nil.
    private func slot(of id: SessionID) -> Int? {
        guard count > 0 else { return nil }
        let mask = ids.count - 1
        var slot = Self.home(of: id, mask: mask)
        while true {
            let held = ids[slot]
            if held == id { return slot }
            if held == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `session` under its id, which must not be held yet.
    mutating func insert(_ session: ServerSession) {
        precondition(session.id != 0, "session id 0")
        if (count + 1) * 2 > ids.count { grow() }
        place(session)
        count += 1
    }

    /// Removes the session of `id`, if held. The slots after it that probed past it move back
    /// (backward-shift deletion), so a lookup never stops early at the freed slot.
    mutating func remove(_ id: SessionID) {
        guard count > 0 else { return }
        let mask = ids.count - 1
        var hole = Self.home(of: id, mask: mask)
        while ids[hole] != id {
            if ids[hole] == 0 { return }
            hole = (hole + 1) & mask
        }
        var next = (hole + 1) & mask
        while ids[next] != 0 {
            let home = Self.home(of: ids[next], mask: mask)
            // Moves back unless its home lies cyclically in (hole, next].
            if (next - home) & mask >= (next - hole) & mask {
                ids[hole] = ids[next]
                sessions[hole] = sessions[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        ids[hole] = 0
        sessions[hole] = nil
        count -= 1
    }

    private mutating func place(_ session: ServerSession) {
        let mask = ids.count - 1
        var slot = Self.home(of: session.id, mask: mask)
        while ids[slot] != 0 { slot = (slot + 1) & mask }
        ids[slot] = session.id
        sessions[slot] = session
    }

    /// Doubles the table (16 slots at first) and places every session again.
    private mutating func grow() {
        let held = all
        ids = [SessionID](repeating: 0, count: max(16, ids.count * 2))
        sessions = [ServerSession?](repeating: nil, count: ids.count)
        for session in held { place(session) }
    }

    /// Where `id`'s probe starts: Fibonacci hashing (a loop's ids step by its thread count, and
    /// the multiplication spreads such runs over the table).
    private static func home(of id: SessionID, mask: Int) -> Int {
        Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
