/// The node's proposals on their way into the log (protocol/CLUSTER.md §2.4): queued in the
/// order they were made, sent on the one append connection up to `capacity` before their
/// replies, each answered once — by its read-back, a refusal, the node's `join`, or a void.
public struct AppendWindow: Sendable {
    /// Where one proposal is.
    public enum Stage: Hashable, Sendable {
        /// Waiting for room in the window, a connection or a join.
        case queued
        /// Sent with the token of `generation`: in the log or not, until read back or refused.
        case sent(generation: Int)
        /// Read, but `WAIT` timed out: a void was asked for (§3.6).
        case voiding(generation: Int)
    }

    /// Appends in flight at most.
    public let capacity: Int
    /// Queued proposals, oldest first.
    public private(set) var queue: [UInt64] = []
    /// Appends sent and not replied to, oldest first (a reply belongs to the oldest). A ticket
    /// dropped at a lease loss stays here until its reply.
    public private(set) var inFlight: [UInt64] = []
    /// Every proposal not answered yet.
    public private(set) var stages: [UInt64: Stage] = [:]
    /// Each unanswered proposal's place in the order they were made.
    private var order: [UInt64: UInt64] = [:]
    private var proposals: UInt64 = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    public var isFull: Bool { inFlight.count >= capacity }

    /// Proposals not answered yet.
    public var unanswered: Int { stages.count }

    mutating func propose(_ ticket: UInt64) {
        queue.append(ticket)
        stages[ticket] = .queued
        proposals += 1
        order[ticket] = proposals
    }

    /// Sends the oldest queued proposal with `generation`'s token.
    mutating func sendFirst(generation: Int) -> UInt64 {
        let ticket = queue.removeFirst()
        inFlight.append(ticket)
        stages[ticket] = .sent(generation: generation)
        return ticket
    }

    /// Takes the oldest queued proposal out, unsent (it is answered by the caller).
    mutating func refuseFirst() -> UInt64 {
        let ticket = queue.removeFirst()
        stages[ticket] = nil
        order[ticket] = nil
        return ticket
    }

    /// The oldest append in flight got its reply: its ticket (nil when none was in flight).
    mutating func replied() -> UInt64? {
        inFlight.isEmpty ? nil : inFlight.removeFirst()
    }

    /// `tickets` (oldest first), sent but surely not in the log, wait again ahead of every
    /// proposal made after them. A ticket answered meanwhile stays answered.
    mutating func requeue(_ tickets: [UInt64]) {
        let back = tickets.filter { ticket in
            guard case .sent = stages[ticket] else { return false }
            stages[ticket] = .queued
            return true
        }
        // None of them gets a reply (also those dropped at a lease loss meanwhile).
        inFlight.removeAll { tickets.contains($0) }
        guard let oldest = back.first.flatMap({ order[$0] }) else { return }
        queue.insert(contentsOf: back, at: queue.firstIndex { order[$0, default: 0] > oldest } ?? queue.endIndex)
    }

    /// The connection broke: every append in flight is unknown (it stays `sent`). Returns how
    /// many were in flight.
    mutating func abandonInFlight() -> Int {
        defer { inFlight.removeAll() }
        return inFlight.count
    }

    /// Answers `ticket`: its stage, or nil when it was answered (or dropped) before.
    mutating func answer(_ ticket: UInt64) -> Stage? {
        order[ticket] = nil
        return stages.removeValue(forKey: ticket)
    }

    /// `ticket`, read but not confirmed by the replicas, waits for a void.
    mutating func voiding(_ ticket: UInt64) -> Bool {
        guard case .sent(let generation) = stages[ticket] else { return false }
        stages[ticket] = .voiding(generation: generation)
        return true
    }

    /// The void was refused (a node had confirmed the entry): it is answered when read back.
    mutating func notVoided(_ ticket: UInt64) {
        guard case .voiding(let generation) = stages[ticket] else { return }
        stages[ticket] = .sent(generation: generation)
    }

    /// Proposals sent with a token older than `generation`, in ticket order.
    func sent(before generation: Int) -> [UInt64] {
        stages.compactMap { ticket, stage in
            if case .sent(let sentIn) = stage, sentIn < generation { return ticket }
            return nil
        }
        .sorted()
    }

    /// Drops every proposal (a lease loss: none is ever answered), in ticket order.
    mutating func dropAll() -> [UInt64] {
        defer {
            queue.removeAll()
            stages.removeAll()
            order.removeAll()
        }
        return stages.keys.sorted()
    }
}
