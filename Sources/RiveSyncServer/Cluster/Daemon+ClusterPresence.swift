import RiveSyncCluster

extension Daemon {
    /// Starts sharing presence with the other nodes (protocol/CLUSTER.md §2.9): their
    /// announcements go to the worker's queue, and the worker asks them for their members.
    func startSharingPresence() throws {
        guard let relay = context.presenceRelay else { return }
        let worker = workers[0]
        let log = context.log
        do {
            try relay.start(
                deliver: { node, announcement in worker.queue.async { worker.run(.presenceAnnounced(node: node, announcement)) } },
                invalid: { reason in log(.error, "skipped a presence announcement of the cluster", [("reason", reason)]) })
        } catch {
            throw ConfigurationError.invalid("cluster.redis: the presence stream could not be read: \(error)")
        }
        worker.queue.async { worker.run(.presenceSharingStarted) }
    }
}
