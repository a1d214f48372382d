import Dispatch
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The shell around a connection core (`Connections`), one per transport service thread
/// (`Dispatchers`): it carries the events of that thread's connections into the core in
/// arrival order, on the service thread under the core's lock (`withCore`),
/// and performs the actions the core returns — sends and closes to the transport, requests to
/// the worker that owns their file or target, timers through the clock, and background work
/// (listings, uploads, file loads) off the core. Events from other threads (the directory's
/// changes, the workers' answers, background work done) are posted (`post`): kept in order and
/// run under the lock before the next transport event, or by `queue` if none comes, so an event
/// posted before a message was received runs before it; the core's timers fire on `queue`,
/// under the lock, after what was posted before. Per connection,
/// requests reach each worker in the order they were sent. Its one `var`, the core, is only
/// reached under the lock (what makes `@unchecked Sendable` sound), checked in debug builds,
/// and carries no run-time exclusivity check (each event's one access is the only one open);
/// the rest is constants, the posted events and the locked copy of the access for `/metrics`.
package final class Dispatcher: @unchecked Sendable {
    /// Where posted events are run when no transport event comes first to run them.
    package let queue: DispatchQueue
    /// Where uploads are hashed and stored and sent files parsed (one at a time, in order;
    /// shared by every dispatcher).
    let background: DispatchQueue
    let context: ServerContext
    /// This dispatcher's stripe of the daemon-wide counters (no cache line shared per message).
    let stripe: MetricStripe
    let workers: [WorkerShell]
    let environment: DispatcherEnvironment
    @exclusivity(unchecked) var connections: Connections
    /// The list the core appends an event's actions to, emptied as they are performed and
    /// kept for the next event (no allocation per message); reached only under the lock.
    @exclusivity(unchecked) private var actions = ActionList<ConnectionAction>()
    /// The tokens and anonymous access the core was last sent, for `/metrics` on the
    /// transport's service thread.
    let access: Locked<ConnectionAccess>
    /// Held while the core runs.
    private let core = Locked(())
    /// The thread holding `core`, in debug builds (`assertConfined`); 0 when none.
    private let coreOwner = Atomic<UInt>(0)
    /// Events posted from other threads, not run yet, in the order posted.
    private let posted = Locked<[ConnectionEvent]>([])
    /// How many events `posted` holds: a transport event reads it without the lock, and takes
    /// `posted`'s lock only when an event waits.
    private let postedCount = Atomic<Int>(0)

    /// The dispatcher of service thread `index`, with the configuration's `tokens`; its
    /// background work runs on `background`.
    init(context: ServerContext, workers: [WorkerShell], tokens: TokenTable, index: Int, background: DispatchQueue) {
        self.context = context
        stripe = context.metrics.stripe()
        self.workers = workers
        self.background = background
        queue = DispatchQueue(label: index == 0 ? "rivesyncd.dispatcher" : "rivesyncd.dispatcher.\(index)")
        environment = DispatcherEnvironment(context: context)
        let settings = context.connectionSettings(tokens: tokens)
        access = Locked(settings.access)
        connections = Connections(environment: environment, settings: settings)
        Self.follow(context.directory, in: self, firstFileWorker: index)
    }

    /// Has the directory tell `dispatcher`'s core every change, posted in the order made: a
    /// worker makes its change before it sends the reply that follows it, so a client's next
    /// request finds the change applied. The core starts from the placement as it is now (taken
    /// under the core's lock, so the changes that follow it run after); its clients' files go
    /// to the workers in turn from `firstFileWorker`.
    private static func follow(_ directory: Directory, in dispatcher: Dispatcher, firstFileWorker: Int) {
        dispatcher.withCore {
            let placement = directory.follow { [weak dispatcher] change in
                dispatcher?.post(.placed(change))
            }
            dispatcher.connections = Connections(
                environment: dispatcher.environment, settings: dispatcher.connections.settings, placement: placement,
                workers: dispatcher.workers.count, firstFileWorker: firstFileWorker)
        }
    }

    // The transport's events run on the caller's thread (a service thread) under the core's
    // lock: a routed request goes from the service thread to its worker with no thread hop in
    // between. Nothing run under the lock blocks (background work and workers get `async`), and
    // nothing run under it calls back into the transport's handler or takes the lock again
    // (workers and background work answer through `post`), so the wait is short and cannot
    // deadlock.

    package func opened(_ session: SessionID, info: SessionInfo) {
        withCore { run(.opened(ConnectionID(session), remoteAddress: info.remoteAddress, origin: info.origin)) }
    }

    package func closed(_ session: SessionID) { withCore { run(.closed(ConnectionID(session))) } }

    /// Handles one message. Each ends in exactly one `.handled` for the transport's
    /// back-pressure (`maxPendingRequests`): from the core, or from the worker it routes to.
    package func received(_ session: SessionID, bytes: [UInt8], isText: Bool) {
        withCore { run(.received(ConnectionID(session), bytes: bytes, isText: isText)) }
    }

    /// Runs `body` holding the core's lock, after the events posted before it.
    func withCore<T>(_ body: () -> T) -> T {
        core.withLock { _ in
            #if DEBUG
                coreOwner.store(UInt(pthread_self()), ordering: .relaxed)
                defer { coreOwner.store(0, ordering: .relaxed) }
            #endif
            runPosted()
            return body()
        }
    }

    /// Keeps `event` to run under the core's lock after the events posted before it: before
    /// the next transport event, or on `queue`. Takes only `posted`'s lock, so a worker run
    /// inline under the core's lock may post.
    func post(_ event: ConnectionEvent) {
        posted.withLock { events in
            events.append(event)
            postedCount.add(1, ordering: .releasing)
        }
        queue.async { [self] in withCore {} }
    }

    /// Runs the posted events (holding the core's lock), those posted meanwhile included.
    private func runPosted() {
        while postedCount.load(ordering: .acquiring) != 0 {
            let events = posted.withLock { events in
                defer { events = [] }
                postedCount.subtract(events.count, ordering: .relaxed)
                return events
            }
            for event in events { run(event) }
        }
    }

    /// Feeds one event to the core and performs its actions (holding the core's lock).
    func run(_ event: consuming ConnectionEvent) {
        assertConfined()
        // The list taken while its actions are performed (none of them runs the core again;
        // should one, it would get a list of its own), then kept for the next event.
        var out = ActionList<ConnectionAction>()
        swap(&out, &actions)
        connections.handle(event, into: &out)
        perform(&out)
        swap(&out, &actions)
    }

    /// Stops a debug build when the caller does not hold the core's lock. Release builds check
    /// nothing.
    func assertConfined() {
        #if DEBUG
            precondition(coreOwner.load(ordering: .relaxed) == UInt(pthread_self()), "the dispatcher's core reached without its lock")
        #endif
    }

    /// Performs the core's actions in order: transport commands are submitted together, and
    /// before anything that hands work on, so a worker's replies follow the core's.
    private func perform(_ actions: inout ActionList<ConnectionAction>) {
        assertConfined()
        var commands: [WebSocketServer.Command] = []
        func flush() {
            context.submit(commands)
            commands = []
        }
        // Each taken out of the list: what the action carries is moved, not copied.
        while let action = actions.popFirst() {
            switch consume action {
            case .send(let frame, let to):
                commands.append(.send(Payload(frame), to: SessionIDs(to)))
            case .close(let connection, let code, let reason):
                commands.append(.close(connection.rawValue, code: code.rawValue, reason: reason))
            case .handled(let connection):
                commands.append(.handled(connection.rawValue))
            case .schedule(let timer, let at):
                // Run on the queue under the lock (after what was posted before), not posted:
                // a posted event would take one more block on the queue.
                context.clock.schedule(at: at, on: queue) { self.withCore { self.run(.timerFired(timer)) } }
            case .route(let connection, let request, let index, let sender):
                flush()
                workers[index].route(.request(connection, consume request, sender: sender))
            case .startBackground(let connection, let work, let id):
                flush()
                start(work, for: connection, id: id)
            case .forget(let connection):
                for worker in workers { worker.host.async { worker.run(.closed(connection)) } }
            case .log(let level, let message, let metadata):
                context.log(Self.level(level), message, metadata)
            case .countRequest:
                stripe.requests.add(1, ordering: .relaxed)
            case .countError(let code):
                context.metrics.recordError(code: code.rawValue)
            }
        }
        flush()
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
