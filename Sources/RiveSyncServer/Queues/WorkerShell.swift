import Dispatch
import RiveSyncCluster
import RiveSyncCore
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

/// The shell around a worker core (`WorkerCore`): its host (`WorkerHost`: a service thread of
/// the transport, or a serial queue) carries events into the core one at a time (requests the
/// dispatcher routes, timers, closed connections, the change log's answers) and the shell
/// performs the actions it returns — sends to the transport in one submit, timers on the host,
/// appends and compactions on the change log, log lines, counters. Everything below `context`
/// is touched only on the host (that is what makes `@unchecked Sendable` sound; debug builds
/// check it where the core is reached: `host.assertConfined()`).
package final class WorkerShell: @unchecked Sendable {
    let index: Int
    /// Where the worker's events run.
    package let host: any WorkerHost
    let context: ServerContext
    /// This worker's stripe of the daemon-wide counters (no cache line shared per set).
    let stripe: MetricStripe
    let core: WorkerCore
    /// Where this worker's files' changes are appended and committed (see `ChangeLog`): the
    /// cluster's log on a cluster node, the file journals with a state directory, else a log in
    /// memory (or the log the daemon was given).
    let log: any ChangeLog
    /// The file journals, when the daemon has a state directory and no other log was given
    /// (the core's log is this then).
    let fileLog: FileChangeLog?
    var syncScheduled = false
    /// Emptied arrays of transport commands from events before, for the next events' sends (no
    /// allocation per event; a few, as `perform`s nest). Touched only on the host.
    @exclusivity(unchecked) private var spareCommands: [[WebSocketServer.Command]] = []
    /// The core's timers the host has not run yet (`runEarliestTimer`). Touched only on the host.
    @exclusivity(unchecked) private var timers = TimerHeap<WorkerTimer>()
    /// Each target's counters in the metrics, at its record's slot with the record's handle:
    /// found by name once per target, not per batch. Touched only on the host.
    @exclusivity(unchecked) private var targetCounters: [(record: WorkerCore.TargetHandle, counters: DaemonMetrics.TargetCounters)?] =
        []
    /// Target names this worker applied that the directory found held by another worker's
    /// file (`Directory.apply`): a restore that meets one refuses the start.
    var nameConflicts: [(name: String, file: String)] = []
    /// Requests the dispatcher routed here that the host has not run yet (`route`).
    private let routed = Locked(RoutedRequests())
    /// Tells the dispatcher a routed `subscribe` was answered (set once, before any request).
    var subscribeAnswered: ((ConnectionID, String, [String]?, Bool) -> Void)?

    typealias TargetRecord = WorkerCore.TargetRecord

    /// Worker `index` of `workers`, on `host`. `log`: the worker's change log; nil for the
    /// default (file journals with a state directory, else memory).
    init(index: Int, of workers: Int, context: ServerContext, host: any WorkerHost, log: (any ChangeLog)? = nil) {
        self.index = index
        self.context = context
        stripe = context.metrics.stripe()
        self.host = host
        let fileLog = log != nil || context.stateDirectory == nil ? nil : FileChangeLog(log: context.log)
        self.fileLog = fileLog
        let log = log ?? fileLog ?? MemoryChangeLog(retains: false)
        self.log = log
        let clusterLog = context.clusterLogs.indices.contains(index) ? context.clusterLogs[index] : nil
        let numbers = clusterLog.map { CommandNumbering.Space.cluster(slot: $0.numbers.slot, slots: ClusterCommandNumbers.slots) }
        core = WorkerCore(
            index: index, of: workers, numbers: numbers ?? .daemon, environment: WorkerShellEnvironment(context: context),
            settings: context.workerSettings(clusterLog: clusterLog), compactsEveryFile: log.compactsEveryFile)
        fileLog?.unsynced = { [unowned self] in scheduleSync() }
    }

    var files: NamedSlots<FileRuntime> {
        host.assertConfined()
        return core.files
    }

    var targets: NamedSlots<TargetRecord> {
        host.assertConfined()
        return core.targets
    }

    /// Feeds one event to the core and performs its actions (on the host), the transport's
    /// send queues reported first when they changed (see `SendQueues`).
    func run(_ event: consuming WorkerEvent) {
        host.assertConfined()
        reportSendQueues()
        perform(core.handle(event))
    }

    /// Hands a request the dispatcher routed (`WorkerEvent.request`) to the host, after
    /// everything posted to it before. The event waits in `routed` and the host runs a closure
    /// that holds only the shell (no allocation, the event moved, not copied): each such
    /// closure runs the first event waiting, and as closures and events go in the same order
    /// (the dispatcher routes one at a time), each runs its own.
    func route(_ event: consuming WorkerEvent) {
        var waiting: WorkerEvent? = consume event
        routed.withLock { $0.append(waiting.take()!) }
        host.async { [self] in runRouted() }
    }

    /// Runs the first routed request waiting (see `route`).
    private func runRouted() {
        guard let event = routed.withLock({ $0.removeFirst() }) else { return }
        run(consume event)
    }

    /// Measures the send queues the core asks for (`connectionsToMeasure`) and reports them
    /// with the total, unless nothing is to be measured and the total is the one reported:
    /// read right before the event, after every submit so far.
    private func reportSendQueues() {
        let total = context.totalQueuedBytes()
        let measured = core.connectionsToMeasure(total: total)
        guard total != core.reportedQueuedBytes || !measured.isEmpty else { return }
        var report = SendQueues(total: total)
        for connection in measured { report.connections[connection] = context.queuedBytes(connection.rawValue) }
        perform(core.handle(.sendQueues(report)))
    }

    /// Performs the core's actions in order; sends and credits go in one transport submit. A
    /// log that answers inside `append` has its answer's actions performed there, in order.
    /// The emptied list goes back to the core, which fills it again (`WorkerCore.recycle`).
    func perform(_ actions: consuming ActionList<WorkerAction>) {
        host.assertConfined()
        var commands = spareCommands.popLast() ?? []
        // At most one allocation for the event's sends and credits, not one per growth.
        commands.reserveCapacity(actions.count)
        // Each taken out of the list: what the action carries is moved, not copied, and the
        // list goes back to the core empty.
        while let action = actions.popFirst() {
            switch consume action {
            case .append(let record, let file, let ticket):
                submit(&commands)
                log.append(record, file: file, ticket: ticket, sink: self)
            case .retract(let file):
                log.retract(file: file)
            case .compact(let file, let state, let targets):
                do { try log.compact(file: file, state: state, targets: targets) } catch {
                    context.log(.error, "snapshot failed; the journal keeps growing", [("file", file), ("error", "\(error)")])
                }
            case .send(let frame, let to):
                commands.append(.send(Payload(frame), to: SessionIDs(to)))
            case .handled(let connection):
                commands.append(.handled(connection.rawValue))
            case .subscribeAnswered(let connection, let target, let paths, let succeeded):
                submit(&commands)
                subscribeAnswered?(connection, target, paths, succeeded)
            case .schedule(let timer, let at):
                timers.insert(timer, at: at)
                host.schedule(at: at) { [self] in runEarliestTimer() }
            case .log(let level, let message, let metadata):
                context.log(Dispatcher.level(level), message, metadata)
            case .count(let counter):
                count(counter)
            case .targetNames(let change):
                if !context.directory.apply(change), case .claim(let name, let file) = change {
                    nameConflicts.append((name, file))
                    context.log(.error, "a target name is held by two files", [("target", name), ("file", file)])
                }
            case .claimTarget(let name, let file, let limit, let claim):
                // The answer's actions go out after what came before the claim.
                submit(&commands)
                run(.targetClaimed(claim: claim, context.directory.claimTarget(name, file: file, limit: limit)))
            case .sharePresence(let announcement):
                if context.presenceRelays.indices.contains(index) { context.presenceRelays[index].publish(announcement) }
            }
        }
        submit(&commands)
        if spareCommands.count < 4, commands.capacity <= 64 { spareCommands.append(commands) }
        core.recycle(consume actions)
    }

    /// Hands `commands` to the transport in one submit and empties them, if there are any,
    /// keeping their storage. Emptied from the end, one at a time: a send and a credit or two,
    /// where `removeAll(keepingCapacity:)` goes through a generic `replaceSubrange` (~335
    /// instructions, even for an empty array).
    private func submit(_ commands: inout [WebSocketServer.Command]) {
        guard !commands.isEmpty else { return }
        context.submit(commands)
        while commands.popLast() != nil {}
    }

    /// Runs the earliest timer waiting, when one of the host's closures fires. The closures
    /// hold only the shell, so making one allocates nothing (one that also held its timer
    /// allocated a context: one per advance). The earliest is always due: by the time `n` of
    /// the closures have fired, `n` timers were due (each closure's own) and only `n - 1`
    /// were taken before.
    private func runEarliestTimer() {
        guard let timer = timers.popFirst(dueBy: .max) else { return }
        run(.timerFired(timer))
    }

    private func count(_ counter: consuming WorkerCounter) {
        // The counters of every set (`waiting`, `published`, `advanceDuration`) reach the
        // metrics without a retain (a locked instruction each): the context and the shell hold
        // them as long as the shell; the daemon-wide ones are this worker's stripe.
        let metrics = Unmanaged.passUnretained(context.metrics)
        let stripe = Unmanaged.passUnretained(stripe)
        switch consume counter {
        case .subscriptions(let target, let delta): context.metrics.add(delta, to: .subscriptions, of: target)
        case .published(let target, let record, let applied, let rejected):
            metrics._withUnsafeGuaranteedRef { metrics in
                counters(of: target, record: record, in: metrics, apartFrom: stripe)._withUnsafeGuaranteedRef {
                    $0.addBatch(applied: applied, rejected: rejected)
                }
            }
        case .commandsRejected(let target, let count): context.metrics.add(count, to: .commandsRejected, of: target)
        case .waiting(let commands, let proposals):
            stripe._withUnsafeGuaranteedRef { stripe in
                if commands != 0 { stripe.commandsQueued.add(commands, ordering: .relaxed) }
                if proposals != 0 { stripe.proposalsWaiting.add(proposals, ordering: .relaxed) }
            }
        case .error(let code): context.metrics.recordError(code: code.rawValue)
        case .advanceDuration(let nanoseconds): stripe._withUnsafeGuaranteedRef { $0.recordAdvance(nanoseconds: nanoseconds) }
        case .catchUp: stripe._withUnsafeGuaranteedRef { _ = $0.catchUps.add(1, ordering: .relaxed) }
        }
    }

    /// The counters of `target` in `metrics` (past the label cap, this worker's share of
    /// `_other` in `stripe`), whose record `record` is (cached by its slot), lent without a
    /// retain: the cache holds them until the slot holds another target's.
    private func counters(
        of target: String, record: WorkerCore.TargetHandle, in metrics: DaemonMetrics, apartFrom stripe: Unmanaged<MetricStripe>
    ) -> Unmanaged<DaemonMetrics.TargetCounters> {
        let slot = record.slot
        if slot < targetCounters.count, let cached = targetCounters[slot], cached.record == record {
            return Unmanaged.passUnretained(cached.counters)
        }
        let found = stripe._withUnsafeGuaranteedRef { metrics.counters(of: target, apartFrom: $0) }
        if slot >= targetCounters.count { targetCounters += repeatElement(nil, count: slot + 1 - targetCounters.count) }
        targetCounters[slot] = (record, found)
        return Unmanaged.passUnretained(found)
    }

    // MARK: The daemon's own calls (on the host)

    /// Loads a schema as a file of this worker.
    func load(_ schema: FileSchema, as name: String, number: UInt64) {
        host.assertConfined()
        core.load(schema, as: name, firstInstanceID: number << Directory.fileIDShift | 1)
    }

    /// Applies reloaded limits to the files already loaded.
    func refreshLimits() {
        host.assertConfined()
        var settings = core.settings
        settings.limits = context.workerLimits
        run(.configured(settings))
    }

    /// Proposes a record and returns what applying it did (configuration; see
    /// `WorkerCore.proposeOwn`): the log must answer inside `append`, as the file journal does.
    func commitNow(_ record: JournalRecord, file: String) throws(WireError) -> Applied {
        try settle(core.proposeOwn(record, file: file))
    }

    /// Publishes an instance as a target (auto mode, default rate), for the configuration.
    func publish(_ instance: InstanceID, as name: String, file: String) throws(WireError) {
        _ = try settle(core.publish(instance, as: name, file: file))
    }

    /// Creates a state machine target for the configuration; returns its name.
    func createStateMachine(_ request: StateMachineRequest, grants: Grants) throws(WireError) -> String {
        defer { perform(core.takeActions()) }
        let (name, ticket) = try core.createStateMachine(request, grants: grants)
        _ = try settle(ticket)
        return name
    }

    /// Performs the actions of one of the daemon's own proposals and returns its outcome.
    private func settle(_ ticket: LogTicket) throws(WireError) -> Applied {
        perform(core.takeActions())
        return try core.outcome(of: ticket)
    }

    /// Listing entries (see `WorkerCore.targetInfos`).
    func targetInfos(after: String?, limit: Int, shows: (String) -> Bool) -> [(name: String, info: ServerMessage.TargetInfo)] {
        host.assertConfined()
        return core.targetInfos(after: after, limit: limit, shows: shows)
    }
}

extension WorkerShell: LogSink {
    /// The log's answer, delivered on the host (inside `append`, or later for a shared log):
    /// an event for the core, whose actions are performed at once.
    package func committed(file: String, record: consuming JournalRecord, ticket: LogTicket?) {
        let count = log.recordsSinceCompaction(of: file)
        run(.committed(file: file, record: record, ticket: ticket, recordsSinceCompaction: count))
    }

    package func appendFailed(file: String, ticket: LogTicket, failure: LogFailure) {
        run(.appendFailed(file: file, ticket: ticket, failure: failure))
    }
}
