/// When an auto target advances: a pure decision on the injected clock's nanoseconds (issue 14
/// adds leading-edge advances here, not in the worker).
public enum AdvancePacing {
    /// When the next advance is due for commands queued at `now`: at once if the target has
    /// not advanced for a whole interval (`1 / rate` s), else at the interval's end, so it
    /// advances at most `rate` times a second.
    public static func due(now: UInt64, lastAdvance: UInt64, rate: Double) -> UInt64 {
        max(now, lastAdvance &+ interval(rate: rate))
    }

    /// One interval at `rate` advances a second, in nanoseconds.
    public static func interval(rate: Double) -> UInt64 { UInt64(1e9 / rate) }
}

/// The back-pressure decisions on a connection's send queue (bytes the transport still holds).
public enum Backlog {
    /// A subscriber over half the send queue is lagging: batches stop and it gets a catch-up
    /// snapshot once it drains.
    public static func lags(queuedBytes: Int, maxSendQueueBytes: Int) -> Bool { queuedBytes > maxSendQueueBytes / 2 }

    /// A lagging subscriber has drained enough for its catch-up snapshot.
    public static func caughtUp(queuedBytes: Int, maxSendQueueBytes: Int) -> Bool { queuedBytes <= maxSendQueueBytes / 8 }
}
