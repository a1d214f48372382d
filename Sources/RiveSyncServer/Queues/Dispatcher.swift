import Dispatch
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

/// The shell around the connection core (`Connections`): one serial queue that carries the
/// transport's events into the core in arrival order (run on the calling service thread) and
/// performs the actions it returns —
/// sends and closes to the transport, requests to the worker that owns their file or target,
/// timers through `asyncAfter`, and background work (listings, uploads, file loads) off this
/// queue. Per connection, requests reach each worker in the order they were sent. Its one
/// `var`, the core, is confined to the queue (what makes `@unchecked Sendable` sound), checked
/// in debug builds, and carries no run-time exclusivity check (each message's one access is
/// the only one open); the rest is constants and the locked copy of the access for `/metrics`.
package final class Dispatcher: @unchecked Sendable {
    package let queue = DispatchQueue(label: "rivesyncd.dispatcher")
    /// Where uploads are hashed and stored and sent files parsed (one at a time, in order).
    let background = DispatchQueue(label: "rivesyncd.background")
    let context: ServerContext
    let workers: [WorkerShell]
    let environment: DispatcherEnvironment
    @exclusivity(unchecked) var connections: Connections
    /// The tokens and anonymous access the core was last sent, for `/metrics` on the
    /// transport's service thread.
    let access: Locked<ConnectionAccess>

    /// Reads the tokens file of the configuration, if any.
    init(context: ServerContext, workers: [WorkerShell]) throws(ConfigurationError) {
        self.context = context
        self.workers = workers
        let table = try context.configuration.auth.tokensFile.map { (path) throws(ConfigurationError) in
            do { return try TokenTable.read(path) } catch { throw .invalid("auth.tokensFile: \(error)") }
        }
        environment = DispatcherEnvironment(context: context)
        let settings = context.connectionSettings(tokens: table ?? TokenTable())
        access = Locked(settings.access)
        connections = Connections(environment: environment, settings: settings)
        Self.hear(workers, in: self)
        Self.follow(context.directory, in: self)
    }

    /// Has the directory tell `dispatcher`'s core every change, on its queue in the order made:
    /// a worker makes its change before it sends the reply that follows it, so a client's next
    /// request finds the change applied. The core starts from the placement as it is now (taken
    /// on the queue, so the changes that follow it run after).
    private static func follow(_ directory: Directory, in dispatcher: Dispatcher) {
        dispatcher.queue.sync {
            let placement = directory.follow { [weak dispatcher] change in
                guard let dispatcher else { return }
                dispatcher.queue.async { dispatcher.run(.placed(change)) }
            }
            dispatcher.connections = Connections(
                environment: dispatcher.environment, settings: dispatcher.connections.settings, placement: placement,
                workers: dispatcher.workers.count)
        }
    }

    /// Has the workers tell `dispatcher` when they answered a routed `subscribe`.
    private static func hear(_ workers: [WorkerShell], in dispatcher: Dispatcher) {
        for worker in workers {
            worker.host.sync {
                worker.subscribeAnswered = { [weak dispatcher] connection, target, paths, succeeded in
                    guard let dispatcher else { return }
                    dispatcher.queue.async {
                        dispatcher.run(.subscribeAnswered(connection, target: target, paths: paths, succeeded: succeeded))
                    }
                }
            }
        }
    }

    // The transport's events run on the caller's thread (a service thread), in the queue's
    // order: `sync` on an idle serial queue runs the block right there, so a routed request
    // goes from the service thread to its worker with no thread hop in between. Nothing run
    // here blocks (background work and workers get `async`), and nothing on the queue calls
    // back into the transport's handler, so the wait is short and cannot deadlock.

    package func opened(_ session: SessionID, info: SessionInfo) {
        queue.sync { run(.opened(ConnectionID(session), remoteAddress: info.remoteAddress, origin: info.origin)) }
    }

    package func closed(_ session: SessionID) { queue.sync { run(.closed(ConnectionID(session))) } }

    /// Handles one message. Each ends in exactly one `.handled` for the transport's
    /// back-pressure (`maxPendingRequests`): from the core, or from the worker it routes to.
    package func received(_ session: SessionID, bytes: [UInt8], isText: Bool) {
        queue.sync { run(.received(ConnectionID(session), bytes: bytes, isText: isText)) }
    }

    /// Feeds one event to the core and performs its actions (on the queue).
    func run(_ event: consuming ConnectionEvent) {
        queue.assertConfined()
        perform(connections.handle(event))
    }

    /// Performs the core's actions in order: transport commands are submitted together, and
    /// before anything that hands work on, so a worker's replies follow the core's.
    private func perform(_ actions: consuming [ConnectionAction]) {
        queue.assertConfined()
        var commands: [WebSocketServer.Command] = []
        func flush() {
            context.submit(commands)
            commands = []
        }
        for position in actions.indices {
            // Moved out, a counter left in its place: what the action carries is not copied.
            var action = ConnectionAction.countRequest
            swap(&action, &actions[position])
            switch consume action {
            case .send(let frame, let to):
                commands.append(.send(Payload(frame), to: SessionIDs(to)))
            case .close(let connection, let code, let reason):
                commands.append(.close(connection.rawValue, code: code.rawValue, reason: reason))
            case .handled(let connection):
                commands.append(.handled(connection.rawValue))
            case .schedule(let timer, let at):
                context.clock.schedule(at: at, on: queue) { self.run(.timerFired(timer)) }
            case .route(let connection, let request, let index, let identity, let author):
                flush()
                let grants = connections.settings.access.grants(of: identity) ?? Grants(scopes: [])
                route(request, from: connection, to: workers[index], grants: grants, author: author)
            case .startBackground(let connection, let work, let id):
                flush()
                start(work, for: connection, id: id)
            case .forget(let connection):
                for worker in workers { worker.host.async { worker.run(.closed(connection)) } }
            case .log(let level, let message, let metadata):
                context.log(Self.level(level), message, metadata)
            case .countRequest:
                context.metrics.requests.add(1, ordering: .relaxed)
            case .countError(let code):
                context.metrics.recordError(code: code.rawValue)
            }
        }
        flush()
    }

    /// Hands a request to its worker: the event is made where the closure captures it, and
    /// copied once when the closure runs (a closure's captures cannot be moved out of).
    private func route(
        _ request: consuming Request, from connection: ConnectionID, to worker: WorkerShell, grants: Grants, author: Author
    ) {
        worker.host.async { [event = WorkerEvent.request(connection, request, grants: grants, author: author)] in
            worker.run(event)
        }
    }

    static func level(_ level: LogLevel) -> Log.Level {
        switch level {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }
}
