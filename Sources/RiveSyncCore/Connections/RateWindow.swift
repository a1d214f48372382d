/// A connection's request rate: at most `limit` requests in each one-second window, the window
/// starting at the first request after the last one ended.
public struct RateWindow: Sendable, Equatable {
    private var start: UInt64?
    private var count = 0

    public init() {}

    /// Counts one request at `now` (nanoseconds); false when it is over the limit.
    public mutating func admits(at now: UInt64, limit: Int) -> Bool {
        if let start, now &- start <= 1_000_000_000 {
            count += 1
        } else {
            start = now
            count = 1
        }
        return count <= limit
    }
}
