extension WorkerCore {
    /// The connections whose send queues the shell measures for the next `sendQueues` report
    /// when the transport holds `total` bytes: none while `total` is at most an eighth of
    /// `maxSendQueueBytes` (no connection can lag or still need to drain then), else every
    /// connection subscribed to one of this worker's targets (the only ones whose lag the core
    /// judges), in order.
    public func connectionsToMeasure(total: Int) -> [ConnectionID] {
        guard total > 0, !Backlog.caughtUp(queuedBytes: total, maxSendQueueBytes: environment.limits.maxSendQueueBytes) else {
            return []
        }
        var connections = Set<ConnectionID>()
        for target in targets.values { connections.formUnion(target.subscribers.keys) }
        return connections.sorted()
    }
}
