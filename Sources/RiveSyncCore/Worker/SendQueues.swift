/// What the transport holds for the connections, as the shell last reported it
/// (`WorkerEvent.sendQueues`): the core judges lag and catch-up from this report and reads no
/// transport itself.
///
/// The shell measures before each event it feeds: the total, and each connection of
/// `WorkerCore.connectionsToMeasure(total:)` — every subscriber while the total is over half
/// of `maxSendQueueBytes`, the lagging ones while it is over an eighth, else none. A
/// connection not listed holds nothing `Backlog` would decide on: it cannot lag (the total is
/// at most half), or it does not lag, or it has drained (the total is at most an eighth).
public struct SendQueues: Sendable, Equatable {
    /// Bytes the transport holds for all connections together, sends in transit included.
    public var total: Int
    /// Bytes held per connection, for the connections measured.
    public var connections: [ConnectionID: Int]

    public init(total: Int = 0, connections: [ConnectionID: Int] = [:]) {
        self.total = total
        self.connections = connections
    }

    /// Bytes held for `connection` as far as `Backlog`'s decisions go (0 when not measured).
    func queuedBytes(_ connection: ConnectionID) -> Int { connections[connection] ?? 0 }
}
