/// What the transport holds for the connections, as the shell last reported it
/// (`WorkerEvent.sendQueues`): the core judges lag and catch-up from this report and reads no
/// transport itself.
///
/// The shell measures before each event it feeds: the total, and, when the total is over
/// `WorkerCore.measuredAbove` (an eighth of `maxSendQueueBytes`), each connection of
/// `WorkerCore.connectionsToMeasure`. A connection not listed holds at most an eighth of
/// `maxSendQueueBytes` (the total does, or the shell would have listed it): it neither lags
/// nor needs to drain further, as `Backlog` decides.
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
