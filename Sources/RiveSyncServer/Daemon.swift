import Dispatch
import Foundation
import RiveFile
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

/// The daemon: loads the configured files onto workers, creates the shared instances and
/// state machines, and serves protocol v1 on one WebSocket port.
public final class Daemon: Sendable {
    public static let version = "0.1.0"

    let context: ServerContext
    let workers: [Worker]
    let dispatcher: Dispatcher
    let server: WebSocketServer

    /// Builds the daemon and loads its configuration; nothing listens until `start()`.
    public init(configuration: DaemonConfiguration, log: Log = Log()) throws {
        let state = try configuration.stateDirectory.map { try StateDirectory(path: $0, policy: configuration.durability) }
        let recovery = try state?.recoverJournals()
        if let renewed = recovery?.renewed, !renewed.isEmpty {
            log(.warning, "history was lost; starting a new epoch, so old cursors get snapshots", [("lost", renewed.joined(separator: "; "))])
        }
        let epoch = state?.epoch ?? StateDirectory.newEpoch()
        let context = ServerContext(configuration: configuration, epoch: epoch, log: log, stateDirectory: state)
        let workers = (0..<configuration.workers).map { Worker(index: $0, context: context) }
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
        if configuration.inspector.enabled { transport.staticFiles = WebPages.files(inspector: configuration.inspector) }
        let metrics = context.metrics
        let handler: any WebSocketServerHandler =
            configuration.testEcho ? EchoHandler(context: context) : SessionHandler(dispatcher: dispatcher)
        server = WebSocketServer(
            configuration: transport, handler: handler,
            metricsAccess: { dispatcher.metricsAccess(authorization: $0, remoteAddress: $1) },
            metricsBody: { $0.prometheusText() + metrics.prometheusText() })
        context.attach(server)
        try restoreState(recovery?.journals ?? [])
        try loadConfiguredState()
    }

    /// Starts listening; returns the bound port.
    @discardableResult
    public func start() throws -> Int {
        try server.start()
        let port = server.port ?? context.configuration.port
        context.log(.info, "listening", [("host", context.configuration.host), ("port", "\(port)"), ("epoch", context.epoch)])
        return port
    }

    /// Closes every connection with 1001, then stops.
    public func stop() {
        server.stop(closeCode: 1001)
        for worker in workers { worker.queue.sync { worker.syncJournals() } }
        // State flush point (SIGTERM drain, `Supervisor.drain`): no connection is left and every
        // worker queue is idle, so persistence flushes here before the process exits 0.
    }

    /// Loads the configured files, instances and state machines that the state directory
    /// did not already restore (the restored state wins; new entries are added).
    private func loadConfiguredState() throws {
        let configuration = context.configuration
        for (i, entry) in configuration.files.enumerated() where context.directory.file(entry.name) == nil {
            let schema = try Self.readSchema(entry)
            let workerIndex = (entry.worker ?? i) % workers.count
            guard let location = context.directory.reserveFile(entry.name, worker: workerIndex) else {
                throw ConfigurationError.invalid("files: '\(entry.name)' appears twice")
            }
            let worker = workers[workerIndex]
            try worker.queue.sync { try worker.loadDurably(schema, as: entry.name, number: location.number) }
        }
        for entry in configuration.instances where context.directory.target(entry.name) == nil {
            guard let location = context.directory.file(entry.file) else { throw ConfigurationError.invalid("instances.\(entry.name): no file '\(entry.file)'") }
            let worker = workers[location.worker]
            try worker.queue.sync { () throws in
                let source: InstanceSource =
                    entry.instance.map { .name($0, from: .name(entry.viewModel)) } ?? .viewModelDefault(from: .name(entry.viewModel))
                let instance = try worker.durably(entry.file, .createInstance(source)) {
                    try $0.createInstance(source)
                }
                try worker.publish(instance, as: entry.name, file: entry.file)
            }
        }
        for entry in configuration.stateMachines where context.directory.target(entry.name) == nil {
            guard let location = context.directory.file(entry.file) else { throw ConfigurationError.invalid("stateMachines.\(entry.name): no file '\(entry.file)'") }
            let worker = workers[location.worker]
            try worker.queue.sync { () throws in
                var globals: [GlobalBinding] = []
                for (name, published) in entry.globals.sorted(by: { $0.key < $1.key }) {
                    guard let target = worker.targets[published], target.file == entry.file,
                        let instance = try worker.files[entry.file]!.target(published).instance(in: .main)
                    else { throw ConfigurationError.invalid("stateMachines.\(entry.name).globals.\(name): no published instance '\(published)' in file '\(entry.file)'") }
                    globals.append(GlobalBinding(name: name, instance: instance))
                }
                _ = try worker.createStateMachine(
                    StateMachineRequest(
                        file: entry.file, name: entry.name, artboard: entry.artboard, stateMachine: entry.stateMachine, globals: globals,
                        manual: entry.manual, rate: entry.rate),
                    grants: .everything)
            }
        }
    }

    /// Reads a configured file: inline schema, a `.riv` (by its magic) or a JSON schema.
    static func readSchema(_ entry: DaemonConfiguration.FileEntry) throws -> FileSchema {
        if let schema = entry.schema { return try FileSchema(json: schema) }
        let path = entry.path!
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError.unreadable(path: path, reason: "cannot read the file")
        }
        let bytes = [UInt8](data)
        if RiveFileReader.hasRivMagic(bytes) {
            do { return try RiveFileReader.read(bytes) } catch { throw ConfigurationError.unreadable(path: path, reason: error.description) }
        }
        do { return try FileSchema(jsonText: String(decoding: bytes, as: UTF8.self)) } catch {
            throw ConfigurationError.unreadable(path: path, reason: "\(WireError(error).message)")
        }
    }
}
