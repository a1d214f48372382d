/// The node's lease and fencing token (protocol/CLUSTER.md §2.8): which token it appends with,
/// each token's generation, until when it may ack, and its quarantine after a loss.
public struct ClusterLease: Sendable {
    /// What the lease is doing now.
    public enum State: Hashable, Sendable {
        /// Held: its last confirmed renewal still covers now.
        case held
        /// Held, with a renewal sent and not answered yet.
        case renewing
        /// Ended (by the clock, or Redis no longer holds the token): the next append joins first.
        case lost
    }

    public let duration: Duration
    /// The current token and its generation (1 for the token taken at the start).
    public private(set) var token: String
    public private(set) var generation: Int
    /// Every token this process appended with, by generation.
    public private(set) var generations: [String: Int]
    /// Until when the lease is surely held: four fifths of it after the last confirmed
    /// renewal was sent.
    public private(set) var validUntil: ClusterInstant
    /// A renewal sent and not answered, with when it was sent.
    public private(set) var renewalSentAt: ClusterInstant?
    /// Set once the lease is found gone: the next append takes a new token first.
    public var needsJoin = false
    /// After a loss, nothing is appended until then.
    public private(set) var quarantineUntil = ClusterInstant(nanoseconds: 0)
    /// The last generation found lost (each is lost once).
    public private(set) var lostGeneration = 0

    /// A lease taken with `token`, its `SET` sent at `sentAt`.
    public init(token: String, sentAt: ClusterInstant, duration: Duration) {
        self.duration = duration
        self.token = token
        generation = 1
        generations = [token: 1]
        validUntil = Self.validUntil(sentAt, duration)
    }

    public func state(at now: ClusterInstant) -> State {
        guard lostGeneration != generation, now < validUntil else { return .lost }
        return renewalSentAt == nil ? .held : .renewing
    }

    /// True while `now` is before the end of the quarantine.
    public func quarantined(at now: ClusterInstant) -> Bool { now < quarantineUntil }

    /// A renewal of the current token goes out at `now`.
    public mutating func renewing(at now: ClusterInstant) { renewalSentAt = now }

    /// Redis answered the renewal sent at `sentAt` for `generation`: `held` false when the key
    /// no longer holds the token. Returns false when that ends the lease.
    public mutating func renewed(generation renewedGeneration: Int, sentAt: ClusterInstant, held: Bool) -> Bool {
        guard renewedGeneration == generation else { return true }
        renewalSentAt = nil
        if held, sentAt < validUntil { validUntil = Self.validUntil(sentAt, duration) }
        return held
    }

    /// A renewal that got no answer (the next one is tried at its time).
    public mutating func renewalFailed() { renewalSentAt = nil }

    /// A new token (its `SET` sent at `sentAt`): the next generation.
    public mutating func took(_ newToken: String, sentAt: ClusterInstant) {
        generation += 1
        token = newToken
        generations[newToken] = generation
        validUntil = Self.validUntil(sentAt, duration)
        renewalSentAt = nil
        needsJoin = false
    }

    /// Ends the current generation's lease at `now`, with a quarantine; false when it was
    /// ended already.
    public mutating func end(at now: ClusterInstant, quarantine: Duration) -> Bool {
        guard lostGeneration != generation else { return false }
        lostGeneration = generation
        needsJoin = true
        validUntil = ClusterInstant(nanoseconds: 0)
        quarantineUntil = now.adding(quarantine)
        return true
    }

    /// Four fifths of the lease after `sentAt`: a fifth before Redis would let it expire.
    static func validUntil(_ sentAt: ClusterInstant, _ duration: Duration) -> ClusterInstant {
        let lease = ClusterInstant.nanoseconds(duration)
        return ClusterInstant(nanoseconds: sentAt.nanoseconds + lease - lease / 5)
    }
}
