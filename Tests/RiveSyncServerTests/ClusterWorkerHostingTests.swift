import Dispatch
import RiveSyncTestSupport
import Testing

@testable import RiveSyncServer

/// A cluster node keeps a queue per worker, whatever `WorkerHosting` says: its
/// `RedisChangeLog` delivers the log's answers on the worker's queue and checks it there
/// (bench/README.md, hosted workers).
@Suite struct ClusterWorkerHostingTests {
    @Test func aClusterNodesWorkersRunOnTheirQueues() async throws {
        let redis = try RedisServerProcess()
        defer { redis.stop() }
        var configuration = DaemonConfiguration.demo()
        configuration.port = 0
        configuration.cluster = DaemonConfiguration.Cluster(redis: redis.url, node: "hosting-test")
        let daemon = try Daemon(configuration: configuration, log: Log(minimum: .error))
        #expect(daemon.workers.allSatisfy { $0.host is QueueHost })
        try daemon.start()
        defer { daemon.stop() }
        let worker = try #require(daemon.workers.first)
        let queue = worker.clusterQueue
        let onQueue = worker.host.sync { () -> Bool in
            dispatchPrecondition(condition: .onQueue(queue))
            return !daemon.server.isServiceThread(0)
        }
        #expect(onQueue)
    }
}
