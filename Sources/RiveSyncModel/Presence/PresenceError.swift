/// Why a presence request was refused; nothing changed.
public enum PresenceError: Error, Sendable, Hashable {
    /// An update or leave from a connection that is not a member of the target.
    case notJoined
    /// A key outside `PresenceLimits.keyBytes`.
    case invalidKey
    /// A state that is not a JSON object.
    case invalidState
    /// A limit was reached (the limit's name, its value).
    case limitExceeded(limit: String, value: Int)
    /// The member updated faster than the limit allows (the limit's name).
    case rateLimited(limit: String)
}
