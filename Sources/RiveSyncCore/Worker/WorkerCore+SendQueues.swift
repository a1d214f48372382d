extension WorkerCore {
    /// The connections whose send queues the shell measures for the next `sendQueues` report
    /// when the transport holds `total` bytes (the sum over every connection), in order:
    /// - when the total has just passed half of `maxSendQueueBytes` (any connection may lag
    ///   from now on): every subscriber of this worker, at most once per catch-up interval;
    /// - while it stays over half: the connections this worker sent batches or presence to
    ///   since the last report, measured after those sends (the next fan-out judges them on
    ///   that);
    /// - while it is over an eighth: the lagging ones (whether they have drained), while a
    ///   catch-up check is scheduled;
    /// - else none: no connection can hold more than the total, so none lags or still has to
    ///   drain.
    ///
    /// So the measuring costs nothing while the transport is not backed up, and then about what
    /// the fan-out costs.
    public func connectionsToMeasure(total: Int) -> [ConnectionID] {
        guard total > 0 else { return [] }
        let maxSendQueueBytes = settings.limits.maxSendQueueBytes
        var connections = Set<ConnectionID>()
        if Backlog.lags(queuedBytes: total, maxSendQueueBytes: maxSendQueueBytes) {
            connections = fannedOut
            if sweepsSubscribers(total: total) {
                for target in targets.values { connections.formUnion(target.subscribers.keys) }
            }
        }
        if catchUpCheckScheduled, !Backlog.caughtUp(queuedBytes: total, maxSendQueueBytes: maxSendQueueBytes) {
            for target in targets.values {
                for (connection, subscription) in target.subscribers where subscription.lagging { connections.insert(connection) }
            }
        }
        return connections.sorted()
    }

    /// Whether a report of `total` measures every subscriber: the total has just passed half
    /// of `maxSendQueueBytes`, and the last such sweep is a catch-up interval old.
    private func sweepsSubscribers(total: Int) -> Bool {
        let maxSendQueueBytes = settings.limits.maxSendQueueBytes
        guard Backlog.lags(queuedBytes: total, maxSendQueueBytes: maxSendQueueBytes),
            !Backlog.lags(queuedBytes: sendQueues.total, maxSendQueueBytes: maxSendQueueBytes)
        else { return false }
        guard let last = lastQueueSweep else { return true }
        return environment.now() &- last >= Self.catchUpCheckInterval
    }

    /// The total of the last send-queue report: the shell reports again when it changes. Read
    /// here, in the core's module, without the run-time exclusivity check a read of
    /// `sendQueues` from another module makes.
    public var reportedQueuedBytes: Int { sendQueues.total }

    /// A report of the send queues: while the transport is backed up, the sizes measured now
    /// join those measured before (a connection is judged on its latest measure); otherwise
    /// only the ones measured now are kept (none can lag).
    func received(_ report: SendQueues) {
        if sweepsSubscribers(total: report.total) { lastQueueSweep = environment.now() }
        fannedOut = []
        if Backlog.lags(queuedBytes: report.total, maxSendQueueBytes: settings.limits.maxSendQueueBytes) {
            sendQueues.total = report.total
            sendQueues.connections.merge(report.connections) { _, new in new }
        } else {
            sendQueues = report
        }
    }
}
