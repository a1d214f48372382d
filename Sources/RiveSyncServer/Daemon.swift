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
    let context: ServerContext
    let workers: [WorkerShell]
    let dispatcher: Dispatcher
    let server: WebSocketServer
    /// What `GET /readyz` says: set by `start()` (the state is restored by then), cleared when
    /// draining begins.
    let ready: Locked<Bool>

    /// Builds the daemon and loads its configuration; nothing listens until `start()`.
    /// `changeLogs` gives worker `i` its change log (see `ChangeLog`); by default the file
    /// journals with a state directory, else a log in memory. `clock`: where the workers and
    /// the dispatcher read the time and set their timers (a test's, for a daemon in-process).
    public init(
        configuration: DaemonConfiguration, log: Log = Log(), changeLogs: ((Int) -> any ChangeLog)? = nil,
        clock: any DaemonClock = SystemClock()
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
        let workers = (0..<workerCount).map {
            WorkerShell(index: $0, of: workerCount, context: context, log: clusterLogs.isEmpty ? changeLogs?($0) : clusterLogs[$0])
        }
        // Every worker hears where each file is placed, before the file's worker loads it.
        context.directory.tellPlacements { event in
            for worker in workers { worker.queue.async { worker.run(event) } }
        }
        let dispatcher = try Dispatcher(context: context, workers: workers)
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
        server = WebSocketServer(
            configuration: transport, handler: handler,
            metricsAccess: { dispatcher.metricsAccess(authorization: $0, remoteAddress: $1) },
            metricsBody: {
                $0.prometheusText() + metrics.prometheusText() + ProcessMetrics.prometheusText()
                    + context.clusterMetricsText()
            },
            readiness: { ready.withLock { $0 } && clusterLogs.allSatisfy(\.isReachable) })
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
        let port = server.port ?? context.configuration.port
        let listening = context.configuration.listenDescriptor.flatMap(OriginPolicy.port(ofListeningSocket:)) ?? port
        context.listeningPort.withLock { $0 = listening }
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
        for worker in workers { worker.queue.sync { worker.syncJournals() } }
        // State flush point (SIGTERM drain, `Supervisor.drain`): no connection is left and every
        // worker queue is idle, so persistence flushes here before the process exits 0.
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
