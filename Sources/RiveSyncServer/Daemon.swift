import Dispatch
import Foundation
import RiveFile
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncToolSupport
import RiveSyncTransport

/// The daemon: loads the configured files onto workers, creates the shared instances and
/// state machines, and serves protocol v1 on one WebSocket port.
public final class Daemon: Sendable {
    package let context: ServerContext
    package let workers: [WorkerShell]
    /// The connection cores, one per transport service thread.
    package let dispatcher: Dispatchers
    let server: WebSocketServer
    /// What `GET /readyz` says: set by `start()` (the state is restored by then), cleared when
    /// draining begins.
    let ready: Locked<Bool>

    /// Builds the daemon and loads its configuration; nothing listens until `start()`.
    /// `changeLogs` gives worker `i` its change log (see `ChangeLog`); by default the file
    /// journals with a state directory, else a log in memory. `clock`: where the workers and
    /// the dispatcher read the time and set their timers (a test's, for a daemon in-process).
    /// `hosting`: where the workers run (see `WorkerHosting`; a cluster node's on queues).
    public init(
        configuration: DaemonConfiguration, log: Log = Log(), changeLogs: ((Int) -> any ChangeLog)? = nil,
        clock: any DaemonClock = SystemClock(), hosting: WorkerHosting = .serviceThreads
    ) throws {
        let state = try configuration.stateDirectory.map { try StateDirectory(path: $0, policy: configuration.durability) }
        let recovery = try state?.recoverJournals()
        if let renewed = recovery?.renewed, !renewed.isEmpty {
            log(
                .warning, "history was lost; starting a new epoch, so old cursors get snapshots",
                [("lost", renewed.joined(separator: "; "))])
        }
        let clusterLogs = try Self.joinCluster(configuration, log: log)
        let epoch = clusterLogs.first?.epoch ?? state?.epoch ?? StateDirectory.newEpoch()
        let context = ServerContext(
            configuration: configuration, epoch: epoch, log: log, stateDirectory: state, clusterLogs: clusterLogs, clock: clock)
        // A cluster node applies each served shard's log on one worker, in log order
        // (protocol/CLUSTER.md §2.2, §6).
        let workerCount = clusterLogs.isEmpty ? configuration.workers : clusterLogs.count
        // A cluster node's workers keep their queues: `RedisChangeLog` answers on them.
        let onQueues = hosting == .queues || !clusterLogs.isEmpty
        let workers = (0..<workerCount).map { index in
            let label = "rivesyncd.worker.\(index)"
            let host: any WorkerHost = onQueues ? QueueHost(label: label, clock: clock) : TransportHost(label: label, clock: clock)
            return WorkerShell(
                index: index, of: workerCount, context: context, host: host,
                log: clusterLogs.isEmpty ? changeLogs?(index) : clusterLogs[index])
        }
        // Every worker hears where each file is placed, before the file's worker loads it.
        context.directory.tellPlacements { event in
            for worker in workers { worker.host.async { worker.run(event) } }
        }
        // And which uploaded assets exist, before an upload's reply can name one.
        context.assets.observe { added, removed in
            for worker in workers { worker.host.async { worker.run(.assetsChanged(added: added, removed: removed)) } }
        }
        let dispatcher = try Dispatchers(context: context, workers: workers, threads: configuration.transportThreads)
        self.context = context
        self.workers = workers
        self.dispatcher = dispatcher
        var transport = WebSocketServer.Configuration()
        transport.host = configuration.host
        transport.port = configuration.port
        transport.listens = configuration.listenDescriptor == nil
        transport.tlsCertificatePath = configuration.tlsCertificate
        transport.tlsKeyPath = configuration.tlsKey
        transport.maxMessageBytes = configuration.limits.maxMessageBytes
        transport.maxQueuedBytesPerSession = configuration.limits.maxSendQueueBytes
        transport.socketSendBufferBytes = configuration.limits.socketSendBufferBytes
        transport.maxConnections = configuration.limits.maxConnections
        transport.maxConnectionsPerAddress = configuration.limits.maxConnectionsPerAddress
        transport.maxUnhandledMessagesPerSession = configuration.limits.maxPendingRequests
        transport.handshakeTimeoutSeconds = configuration.limits.helloTimeoutSeconds
        transport.serviceThreads = configuration.transportThreads
        if configuration.inspector.enabled { transport.staticFiles = WebPages.files(inspector: configuration.inspector) }
        let metrics = context.metrics
        let ready = Locked(false)
        self.ready = ready
        let handler: any WebSocketServerHandler =
            configuration.testEcho ? EchoHandler(context: context) : SessionHandler(dispatcher: dispatcher)
        // A connection whose URL names its room goes to the thread of the room's worker
        // (worker w runs on thread w % threads, `start`); workers on queues have no thread.
        let directory = context.directory
        let threads = configuration.transportThreads
        let steering: (@Sendable (String) -> Int?)? =
            onQueues
            ? nil
            : { @Sendable requestTarget in
                ConnectionHint(requestTarget: requestTarget).worker(in: directory).map { $0 % threads }
            }
        server = WebSocketServer(
            configuration: transport, handler: handler,
            metricsAccess: { dispatcher.metricsAccess(authorization: $0, remoteAddress: $1) },
            metricsBody: {
                $0.prometheusText() + metrics.prometheusText() + ProcessMetrics.prometheusText()
                    + context.clusterMetricsText()
            },
            readiness: { ready.withLock { $0 } && clusterLogs.allSatisfy(\.isReachable) }, steering: steering)
        context.attach(server)
        try restoreState(recovery?.journals ?? [])
        // A shard with snapshots: they hold its configured state and everything since.
        try restoreSnapshots()
        try loadConfiguredState()
        if !clusterLogs.isEmpty {
            try startReplicating()
            try startSharingPresence()
            startShardDirectory()
        }
    }

    /// Starts listening; returns the bound port (`announceListening` says so).
    @discardableResult
    public func start() throws -> Int {
        do { try server.start() } catch {
            switch error.kind {
            case .addressInUse: throw ConfigurationError.invalid("listen: \(error.detail)")
            case .tlsSetupFailed: throw ConfigurationError.invalid("tls: \(error.detail)")
            default: throw error
            }
        }
        // Worker w runs on service thread w % threads from now on.
        for worker in workers {
            (worker.host as? TransportHost)?.attach(server, thread: worker.index % server.serviceThreadCount)
        }
        let port = server.port ?? context.configuration.port
        let listening = context.configuration.listenDescriptor.flatMap(OriginPolicy.port(ofListeningSocket:)) ?? port
        dispatcher.reconfigure { $0.origins.port = listening }
        ready.withLock { $0 = true }
        return port
    }

    /// Closes every connection with 1001, then stops.
    public func stop() {
        ready.withLock { $0 = false }
        server.stop(closeCode: CloseCode.goingAway.rawValue)
        for clusterLog in context.clusterLogs { clusterLog.stop() }
        for relay in context.presenceRelays { relay.stop() }
        context.shardDirectory?.stop()
        // The service threads are joined: hosted workers run what is left of their work here.
        for worker in workers { (worker.host as? TransportHost)?.detach() }
        for worker in workers { worker.host.sync { worker.syncJournals() } }
        // State flush point (SIGTERM drain, `Supervisor.drain`): no connection is left and every
        // worker is idle, so persistence flushes here before the process exits 0.
    }

    /// Reads a configured file: inline schema, a `.riv` (by its magic) or a JSON schema.
    static func readSchema(_ entry: DaemonConfiguration.FileEntry) throws -> FileSchema {
        if let schema = entry.schema { return try FileSchema(json: schema) }
        let path = entry.path!
        let bytes: [UInt8]
        do { bytes = try FileContents.bytes(atPath: path) } catch { throw ConfigurationError.unreadable(path: path, reason: "\(error)") }
        if RiveFileReader.hasRivMagic(bytes) {
            do { return try RiveFileReader.read(bytes) } catch {
                throw ConfigurationError.unreadable(path: path, reason: error.description)
            }
        }
        let json = try ConfigurationError.readJSON(path, bytes: bytes, parser: JSONParser(maxDepth: 64))
        do { return try FileSchema(json: json) } catch {
            throw ConfigurationError.unreadable(path: path, reason: "\(WireError(error).message)")
        }
    }
}
