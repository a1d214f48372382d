/// What the transport holds for the connections, as the shell reported it
/// (`WorkerEvent.sendQueues`): the core judges lag and catch-up from these reports and reads
/// no transport itself.
///
/// The shell measures before each event it feeds, when something changed: the total, and
/// each connection of `WorkerCore.connectionsToMeasure(total:)` — once the transport backs up
/// (the total passes half of `maxSendQueueBytes`), every subscriber, then the connections the
/// worker sent to since the last report; while it is over an eighth, the lagging ones. A
/// connection is judged on its latest measure; one never measured counts as empty until it is
/// (after the worker's next send to it).
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
