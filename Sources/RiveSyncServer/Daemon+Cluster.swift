import RiveSyncCluster
import RiveSyncProtocol
import RiveSyncRedis

extension Daemon {
    /// What is wrong with the `cluster` section before Redis is contacted (also for
    /// `--check-config`): the URL, and settings a node cannot have.
    static func clusterProblems(_ configuration: DaemonConfiguration) -> [String] {
        guard let cluster = configuration.cluster else { return [] }
        var problems: [String] = []
        do { _ = try RedisEndpoint(url: cluster.redis) } catch { problems.append("cluster.redis: \(error)") }
        if configuration.stateDirectory != nil {
            problems.append("stateDirectory: a cluster node keeps no state directory (its log is in Redis); remove one of them")
        }
        return problems
    }

    /// Joins the cluster of the configuration (protocol/CLUSTER.md §2.7): nil for a single node.
    static func joinCluster(_ configuration: DaemonConfiguration, log: Log) throws -> RedisChangeLog? {
        guard let cluster = configuration.cluster else { return nil }
        let problems = clusterProblems(configuration)
        guard problems.isEmpty else { throw ConfigurationError.invalid(problems.joined(separator: "; ")) }
        let endpoint = try RedisEndpoint(url: cluster.redis)
        let settings = RedisChangeLog.Settings(
            endpoint: endpoint, keys: ClusterKeys(prefix: cluster.prefix), node: cluster.node,
            lease: .milliseconds(cluster.leaseMilliseconds), timeout: .milliseconds(cluster.timeoutMilliseconds))
        do {
            let joined = try RedisChangeLog(settings, newEpoch: StateDirectory.newEpoch())
            log(
                .info, "joined the cluster",
                [("redis", "\(endpoint)"), ("node", cluster.node), ("epoch", joined.epoch), ("slot", "\(joined.numbers.slot)")])
            if let persistence = joined.persistence, persistence != ("yes", "always") {
                log(
                    .warning, "Redis may lose acknowledged changes in a crash: run it with appendonly yes and appendfsync always",
                    [("appendonly", persistence.appendonly), ("appendfsync", persistence.appendfsync)])
            }
            return joined
        } catch {
            throw ConfigurationError.invalid("cluster.redis: \(error)")
        }
    }

    /// Starts applying the cluster's log after the configured state, and waits until the node
    /// has applied all of it (it serves only then).
    func startReplicating(_ clusterLog: RedisChangeLog) throws {
        let worker = workers[0]
        let log = context.log
        let dispatcher = self.dispatcher
        // Events come on the worker's queue.
        try clusterLog.startReplicating(sink: worker, queue: worker.queue) { event in
            switch event {
            case .caughtUp:
                log(.info, "reading the cluster log again", [])
                dispatcher.tellFreshness(true)
            case .cutOff(let error):
                log(.warning, "cut off from the cluster log; telling clients the state may be stale", [("error", "\(error)")])
                dispatcher.tellFreshness(false)
            case .leaseLost:
                log(.error, "the cluster lease ended; closing every connection (clients resume on another node)", [])
                worker.run(.proposalsDropped)
                dispatcher.closeEveryConnection(code: .goingAway, reason: "cluster lease lost")
            case .invalidEntry(let reason): log(.error, "skipped an entry of the cluster log", [("reason", reason)])
            }
        }
        guard clusterLog.waitUntilCaughtUp(timeout: .seconds(120)) else {
            throw ConfigurationError.invalid("cluster.redis: the cluster log could not be read within 120 s")
        }
        log(.info, "caught up with the cluster log", [])
    }
}

extension Dispatcher {
    /// Tells every connection that has said hello whether the node's state may be behind the
    /// cluster's (`freshness`, PROTOCOL.md §7.1): false once it cannot read the log, true once
    /// it has caught up again.
    func tellFreshness(_ fresh: Bool) {
        let frame = ServerContext.payload(.freshness(fresh: fresh))
        queue.async { [self] in
            let greeted = connections.greeted.map(\.rawValue)
            if !greeted.isEmpty { context.submit([.send(frame, to: greeted)]) }
        }
    }

    /// Closes every connection (a cluster node whose lease ended: its acks can no longer be
    /// trusted, so its clients go on elsewhere, protocol/CLUSTER.md §3.2).
    func closeEveryConnection(code: CloseCode, reason: String) {
        queue.async { [self] in
            context.submit(connections.open.map { .close($0.rawValue, code: code.rawValue, reason: reason) })
        }
    }
}

extension DispatcherEnvironment {
    /// False while this cluster node cannot read the cluster's log (from a failed read until
    /// its reader has caught up again).
    var stateIsFresh: Bool { context.clusterLog?.isReachable ?? true }
}
