import Dispatch
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

@testable import RiveSyncServer

/// Where the daemon's workers run (`WorkerHosting`): worker `w` on service thread
/// `w % transportThreads` of the running transport — its calls, its posted events and its
/// timers — and inline under the host's lock before the transport starts and after it stops.
@Suite struct WorkerHostingTests {
    /// Two workers on two transport threads: each runs on its own thread and only there, its
    /// timers fire there, and the daemon's calls and events reach it before start and after
    /// stop.
    @Test func eachWorkerRunsOnItsServiceThread() async throws {
        var configuration = DaemonConfiguration.demo()
        configuration.port = 0
        configuration.workers = 2
        configuration.transportThreads = 2
        let daemon = try Daemon(configuration: configuration, log: Log(minimum: .error))
        #expect(daemon.workers.allSatisfy { $0.host is TransportHost })
        // Before the start the configuration's files were loaded on them, inline.
        #expect(daemon.workers.reduce(0) { total, worker in total + worker.host.sync { worker.files.count } } > 0)
        try daemon.start()
        let server = daemon.server
        let seen = Locked<[String]>([])
        for worker in daemon.workers {
            let thread = worker.index % 2
            #expect(worker.host.sync { server.isServiceThread(thread) && !server.isServiceThread(1 - thread) })
            worker.host.async { seen.withLock { $0.append("event \(worker.index) \(server.isServiceThread(thread))") } }
            worker.host.schedule(at: daemon.context.clock.now() + 2_000_000) {
                seen.withLock { $0.append("timer \(worker.index) \(server.isServiceThread(thread))") }
            }
        }
        try await waitUntil("two events and two timers ran") { seen.withLock { $0.count } == 4 }
        #expect(Set(seen.withLock { $0 }) == ["event 0 true", "event 1 true", "timer 0 true", "timer 1 true"])
        daemon.stop()
        // After the stop: inline again, on the caller, which is no service thread.
        for worker in daemon.workers { #expect(worker.host.sync { !server.isServiceThread(worker.index % 2) }) }
        daemon.workers[0].host.async { seen.withLock { $0.append("after stop") } }
        #expect(seen.withLock { $0.last } == "after stop")
    }

    /// The in-process daemon keeps a queue per worker (no transport runs there).
    @Test func theDaemonOnQueuesHostsEachWorkerOnAQueue() throws {
        let daemon = try Daemon(configuration: .demo(), log: Log(minimum: .error), hosting: .queues)
        #expect(daemon.workers.allSatisfy { $0.host is QueueHost })
        let queue = try #require(daemon.workers.first?.host as? QueueHost).queue
        let onQueue = daemon.workers[0].host.sync { () -> Bool in
            dispatchPrecondition(condition: .onQueue(queue))
            return true
        }
        #expect(onQueue)
    }
}
