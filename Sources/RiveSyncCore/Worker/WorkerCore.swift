import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// A worker's logic as a state machine: the files it owns, their instances and targets, the
/// targets' subscribers, batch history, pending acks, the proposals in flight, replay. Events
/// in (`handle`: requests, timers, the change log's answers), actions out; the shell runs it
/// on one serial context and performs the actions (sends, timers, log appends and
/// compactions, log lines, counters). It calls no log: see `ChangeLog`.
///
/// Its `var`s carry no run-time exclusivity check (`@exclusivity(unchecked)`, ~80
/// instructions an access, dozens per set): the shell confines the core to one context, and
/// no access to one of them is open while another to the same one begins (the run-time
/// checks found none while they were on; bench/README.md, "The set path, round four").
public final class WorkerCore {
    /// The worker's index among the daemon's workers.
    public let index: Int
    let environment: any WorkerEnvironment
    /// The configuration as the shell last sent it (`configured`).
    @exclusivity(unchecked) public private(set) var settings: WorkerSettings
    /// The change log holds every file in one sequence (`ChangeLog.compactsEveryFile`).
    let compactsEveryFile: Bool
    /// The files by name, in slots an event can name by handle (`FileHandle`).
    @exclusivity(unchecked) public internal(set) var files = NamedSlots<FileRuntime>()
    /// The targets by name, in slots an event can name by handle (`TargetHandle`).
    @exclusivity(unchecked) public internal(set) var targets = NamedSlots<TargetRecord>()
    @exclusivity(unchecked) var catchUpCheckScheduled = false
    /// How this worker numbers the commands it queues (its own counter).
    @exclusivity(unchecked) var numbering: CommandNumbering
    /// Every file of the daemon by number, with its worker (`WorkerEvent.filePlaced`; this
    /// worker's own from `load`).
    @exclusivity(unchecked) var placedFiles: [UInt64: (name: String, worker: Int)] = [:]
    /// The uploaded assets' ids, as the shell told them (`assetsChanged`).
    @exclusivity(unchecked) var assets: Set<String> = []
    /// The send queues as the shell reported them (`WorkerEvent.sendQueues`): the latest total,
    /// and each connection's size as last measured.
    @exclusivity(unchecked) public internal(set) var sendQueues = SendQueues()
    /// Connections sent batches or presence while the transport was backed up, since the last
    /// report: measured for the next one (`connectionsToMeasure`).
    @exclusivity(unchecked) var fannedOut: Set<ConnectionID> = []
    /// When the shell last measured every subscriber (the transport had just backed up).
    @exclusivity(unchecked) var lastQueueSweep: UInt64?
    /// What each proposal in flight answers once the log has, by ticket.
    @exclusivity(unchecked) var waiting = Proposals()
    /// What the daemon's own proposals did, until `outcome(of:)`.
    @exclusivity(unchecked) var ownOutcomes: [LogTicket: Result<Applied, WireError>] = [:]
    /// Target names claimed for proposals in flight (their records claim nothing again).
    @exclusivity(unchecked) var reservedTargets: Set<String> = []
    /// The target names of this worker's files, as it applied them (the directory follows
    /// through `targetNames` actions).
    @exclusivity(unchecked) var names = Placement()
    /// Requests waiting for their target name's claim (`targetClaimed`).
    @exclusivity(unchecked) var pendingClaims: [UInt64: PendingClaim] = [:]
    @exclusivity(unchecked) var lastClaim: UInt64 = 0
    /// True while a journal is being restored (no snapshot is written then).
    @exclusivity(unchecked) var replaying = false
    /// The other cluster nodes as presence knows them.
    @exclusivity(unchecked) var presencePeers = PresencePeers()
    /// Other nodes' announcements of targets this node has not applied yet, by target and node
    /// (the latest), with when they came: applied once the target is there, dropped after a lease.
    @exclusivity(unchecked) var presenceAwaiting: [String: [String: (announcement: PresenceAnnouncement, at: UInt64)]] = [:]
    /// Actions produced since the shell last took them.
    @exclusivity(unchecked) var outbox = ActionList<WorkerAction>()
    /// Emptied lists of actions the shell gave back (`recycle`): the outbox's next storage (a
    /// few, as events nest: a log answering inside `append` runs an event within an event).
    @exclusivity(unchecked) var spareOutboxes: [ActionList<WorkerAction>] = []
    /// The changes of the `waiting` counter since the shell last took the actions (one action
    /// for all of them, see `takeActions`).
    @exclusivity(unchecked) var waitingChange = (commands: 0, proposals: 0)

    /// Where a file is in `files`.
    public typealias FileHandle = NamedSlots<FileRuntime>.Handle
    /// Where a target's record is in `targets`.
    public typealias TargetHandle = NamedSlots<TargetRecord>.Handle

    /// Worker `index` of the daemon's `workers`, numbering its commands in `numbers` (see
    /// `CommandNumbering`). `compactsEveryFile`: the shell's change log holds every file in one
    /// sequence.
    public init(
        index: Int, of workers: Int, numbers: CommandNumbering.Space = .daemon, environment: any WorkerEnvironment,
        settings: WorkerSettings, compactsEveryFile: Bool = false
    ) {
        self.index = index
        self.numbering = CommandNumbering(worker: index, of: workers, in: numbers)
        self.environment = environment
        self.settings = settings
        self.compactsEveryFile = compactsEveryFile
    }

    /// Feeds one event; returns every action produced since the last call that returned them.
    /// The event is taken, not copied: what it carries moves into the state it changes.
    public func handle(_ event: consuming WorkerEvent) -> ActionList<WorkerAction> {
        switch consume event {
        case .request(let connection, let request, let sender):
            let succeeded = handle(request, from: connection, grants: sender.grants, author: sender.author)
            outbox.append(.handled(connection))
            if case .subscribe(let target, let paths, _) = request.body {
                outbox.append(.subscribeAnswered(connection, target: target, paths: paths, succeeded: succeeded))
            }
        case .sendQueues(let report):
            received(report)
        case .configured(let settings):
            configured(settings)
        case .assetsChanged(let added, let removed):
            assets.subtract(removed)
            assets.formUnion(added)
        case .filePlaced(let name, let location):
            placedFiles[location.number] = (name, location.worker)
        case .fileReleased(let number):
            placedFiles[number] = nil
        case .targetClaimed(let claim, let result):
            targetClaimed(claim, result)
        case .timerFired(.advance(let target, let record)):
            runAdvance(target, record: record)
        case .timerFired(.catchUpCheck):
            checkCatchUp()
        case .timerFired(.presenceMessage(let target)):
            presenceMessageDue(target)
        case .timerFired(.presenceGrace(let target)):
            presenceGraceEnded(target)
        case .closed(let connection):
            sendQueues.connections[connection] = nil
            connectionClosed(connection)
            presenceDisconnected(connection)
        case .proposalsDropped:
            dropUnansweredProposals()
        case .presenceSharingStarted:
            presenceSharingStarted()
        case .presenceAnnounced(let node, let announcement):
            presenceAnnounced(by: node, announcement)
        case .timerFired(.presencePeers):
            presencePeersDue()
        case .committed(let file, let record, let ticket, let recordsSinceCompaction):
            committed(file: file, record: record, ticket: ticket, recordsSinceCompaction: recordsSinceCompaction)
        case .appendFailed(let file, let ticket, let failure):
            appendFailed(file: file, ticket: ticket, failure: failure)
        }
        return takeActions()
    }

    /// The actions produced since the last call (by the calls the shell makes for the
    /// configuration and restore).
    public func takeActions() -> ActionList<WorkerAction> {
        if waitingChange != (0, 0) {
            outbox.append(.count(.waiting(commands: waitingChange.commands, proposals: waitingChange.proposals)))
            waitingChange = (0, 0)
        }
        // The storage of actions performed before (`recycle`): an event allocates none. Moved
        // out, not copied (a copy would retain the storage).
        var actions = spareOutboxes.popLast() ?? ActionList()
        swap(&actions, &outbox)
        return actions
    }

    /// Takes back a list `handle` or `takeActions` returned, once its actions are performed
    /// (taken out of it): it holds the actions of an event to come. Four are kept; lists past
    /// 64 actions are let go. Actions not taken are dropped.
    public func recycle(_ actions: consuming ActionList<WorkerAction>) {
        guard spareOutboxes.count < 4, actions.capacity <= 64 else { return }
        var emptied = consume actions
        if !emptied.isEmpty { emptied.removeAll() }
        spareOutboxes.append(consume emptied)
    }

    struct Subscription {
        var paths: [String]?
        var lagging = false
        /// The connection may see the target's presence (`seePresence`).
        var presence = false
    }

    struct PendingAck {
        var connection: ConnectionID
        var requestID: JSONValue?
        /// The command's path when its sender may not read there (see `RequestGrants.visible`).
        var hiddenPath: String?
        /// A transaction's (kept under its first command's number): all its command numbers,
        /// and each one's hidden path.
        var transaction: PendingTransaction?
    }

    struct PendingTransaction {
        var commands: [UInt64]
        var hiddenPaths: [String?]
    }

    // MARK: Out

    func send(_ message: ServerMessage, to connection: ConnectionID) {
        outbox.append(.send(frame(message), to: Recipients(connection)))
    }

    /// `message` encoded once, with the shell's headroom in front.
    func frame(_ message: ServerMessage) -> Frame { Frame(message, headroom: settings.frameHeadroom) }

    /// Sends an error reply and counts it.
    func sendError(_ error: WireError, id: JSONValue?, to connection: ConnectionID) {
        outbox.append(.count(.error(error.code)))
        send(.error(error, id: id), to: connection)
    }

    func count(_ counter: WorkerCounter) { outbox.append(.count(counter)) }

    func logLine(_ level: LogLevel, _ message: String, _ metadata: [(String, String)]) {
        outbox.append(.log(level, message, metadata))
    }

    // MARK: Files

    /// Loads a schema as a file of this worker; its instance ids start at `firstInstanceID`.
    public func load(_ schema: FileSchema, as name: String, firstInstanceID: UInt64) {
        placedFiles[firstInstanceID >> Placement.fileIDShift] = (name, index)
        files[name] = FileRuntime(schema: schema, limits: settings.limits.model, firstInstanceID: firstInstanceID)
    }

    /// Keeps reloaded settings, and applies their limits to the files already loaded.
    func configured(_ new: WorkerSettings) {
        settings = new
        let limits = settings.limits.model
        for name in Array(files.keys) { files[name]!.limits = limits }
    }

    /// The file an instance id belongs to, and the file's worker (as placed).
    func owner(of id: InstanceID) -> (name: String, worker: Int)? { placedFiles[id.rawValue >> Placement.fileIDShift] }

    /// Checks that an instance id belongs to `file` on this worker.
    func checkInstance(_ id: InstanceID, in file: String) throws(WireError) {
        guard let owner = owner(of: id) else { throw WireError(StateMachineError.unknownInstance(id)) }
        guard owner.worker == index else {
            throw WireError(
                code: .wrongWorker,
                message: "instance \(id.rawValue) lives on worker \(owner.worker) (file '\(owner.name)'), the target on worker \(index)",
                details: [("instance", .number(Double(id.rawValue)))])
        }
        guard owner.name == file, files[file]?.store[id] != nil else { throw Self.notAnInstance(id, of: file) }
    }

    static func notAnInstance(_ id: InstanceID, of file: String) -> WireError {
        WireError(
            code: .unknownInstance, message: "instance \(id.rawValue) is not an instance of file '\(file)'",
            details: [("instance", .number(Double(id.rawValue)))])
    }

    /// Checks that `grants` may attach an instance to `target` at `path`: the instance, and
    /// everything it holds, must be readable wherever a target already shows it — and
    /// writable (fireable) there too if the connection may write (fire) at or under `path`,
    /// since it could then change it through `target`. Otherwise the instance is reported as
    /// unknown, exactly like an id that does not exist, so ids reveal nothing.
    func checkAttach(
        _ id: InstanceID, in file: String, to target: String, at path: ParsedPath, grants: any RequestGrants
    ) throws(WireError) {
        try checkInstance(id, in: file)
        let writes = grants.mayWithin(.write, on: target, at: path)
        let fires = grants.mayWithin(.fire, on: target, at: path)
        for (holder, paths) in files[file]!.exposure(of: id) {
            for shown in paths {
                guard grants.may(.read, on: holder, at: shown), !writes || grants.may(.write, on: holder, at: shown),
                    !fires || grants.may(.fire, on: holder, at: shown)
                else { throw Self.notAnInstance(id, of: file) }
            }
        }
    }

    func runtime(_ file: String) throws(WireError) -> FileRuntime {
        try checkFile(file)
        return files[file]!
    }

    /// Throws `unknown_file` unless this worker has `file` (its runtime not copied).
    func checkFile(_ file: String) throws(WireError) {
        guard files.handle(of: file) == nil else { return }
        throw Self.unknownFile(file)
    }

    /// The error for a file this worker does not have.
    static func unknownFile(_ file: String) -> WireError {
        WireError(code: .unknownFile, message: "no file '\(file)'", details: [("file", .string(file))])
    }

    /// The listing entry of a target.
    public func targetInfo(_ name: String) -> ServerMessage.TargetInfo? {
        guard let record = targets[name], let target = try? files[record.file]?.target(name) else { return nil }  // unknown: not listed
        let kind: ServerMessage.TargetKind
        var layers: [LayerState]?
        var settled: Bool?
        var inputs: [StateMachineInputState]?
        switch target.kind {
        case .stateMachine(let artboard, let stateMachine):
            kind = .stateMachine(artboard: artboard, stateMachine: stateMachine)
            layers = files[record.file]!.layerStates(name)
            settled = files[record.file]!.isSettled(name)
            inputs = files[record.file]!.inputStates(name)
        case .publishedInstance: kind = .instance
        }
        return ServerMessage.TargetInfo(
            name: name, file: record.file, kind: kind, mode: record.manual ? .manual : .auto, rate: record.rate, seq: target.seq,
            bindings: target.bindings, layers: layers, settled: settled, inputs: inputs)
    }

    /// Listing entries of this worker's first `limit` targets by name after `after` that
    /// `shows` lets through.
    public func targetInfos(after: String?, limit: Int, shows: (String) -> Bool) -> [(name: String, info: ServerMessage.TargetInfo)] {
        let names = targets.keys.filter { name in after.map { name > $0 } ?? true }.filter(shows).sorted().prefix(limit)
        return names.compactMap { name in targetInfo(name).map { (name, $0) } }
    }
}
