extension WorkerCore {
    /// The connections whose send queues the shell measures for the next `sendQueues` report
    /// when the transport holds `total` bytes (the sum over every connection), in order:
    /// - over half of `maxSendQueueBytes`: every connection subscribed to one of this worker's
    ///   targets (any of them may lag now);
    /// - over an eighth: the lagging ones (whether they have drained), asked only while this
    ///   worker has a catch-up check scheduled;
    /// - else none: no connection can hold more than the total, so none lags or still has to
    ///   drain.
    ///
    /// So a connection left out holds nothing `Backlog` would decide on, and the measuring costs
    /// nothing while the transport is not backed up.
    public func connectionsToMeasure(total: Int) -> [ConnectionID] {
        guard total > 0 else { return [] }
        let maxSendQueueBytes = environment.limits.maxSendQueueBytes
        let anyMayLag = Backlog.lags(queuedBytes: total, maxSendQueueBytes: maxSendQueueBytes)
        guard anyMayLag || (catchUpCheckScheduled && !Backlog.caughtUp(queuedBytes: total, maxSendQueueBytes: maxSendQueueBytes))
        else { return [] }
        var connections = Set<ConnectionID>()
        for target in targets.values {
            for (connection, subscription) in target.subscribers where anyMayLag || subscription.lagging {
                connections.insert(connection)
            }
        }
        return connections.sorted()
    }
}
