extension Worker {
    /// On a cluster node, another node's advance of a manual target was just applied: this
    /// node's own queue of that target follows at once, so one `advance` request applies what
    /// every node queued (protocol/CLUSTER.md §1.8).
    func followAdvance(of target: String) {
        guard context.clusterLog != nil, let record = targets[target], record.manual, !record.queued.isEmpty else { return }
        runAdvance(target)
    }
}
