extension Worker {
    /// On a cluster node, another node's advance of a manual target was just applied: this
    /// node's own queue of that target follows at once, so one `advance` request applies what
    /// every node queued (protocol/CLUSTER.md §1.8).
    func followAdvance(of target: String) {
        guard context.clusterLog != nil, let record = targets[target], record.manual, !record.queued.isEmpty else { return }
        runAdvance(target)
    }
}

extension Worker {
    /// The cluster lease ended (protocol/CLUSTER.md §2.8): the log answers none of the
    /// proposals made before, and their connections are being closed, so their waiters are
    /// freed here without an answer. A record among them already in the log still applies
    /// (committed without a ticket, like another node's) and acks nobody: the pending acks of
    /// a dropped advance go too. A target name claimed for a dropped proposal is released; if
    /// its record commits, applying it claims the name again, as on every other node.
    func dropProposalsOfEndedLease() {
        let dropped = waiting
        waiting.removeAll()
        context.metrics.proposalsWaiting.add(-dropped.count, ordering: .relaxed)
        for waiter in dropped.values {
            switch waiter {
            case .request(let request):
                if let name = request.reserved, reservedTargets.remove(name) != nil { context.directory.releaseTarget(name) }
            case .advance(let target, let commands, _):
                targets[target]?.advancesInFlight -= 1
                for command in commands { targets[target]?.pending[command.id] = nil }
            case .local:
                break
            }
        }
    }
}
