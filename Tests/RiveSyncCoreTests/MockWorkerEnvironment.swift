import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// A daemon for one worker core: a clock the test moves, no assets and a stand-in digest (the
/// file `demo` is number 1, on worker 0). Its settings, small limits: `settings`.
final class MockWorkerEnvironment: WorkerEnvironment {
    var clock: UInt64 = 10_000_000_000
    /// The environment's functions the core called (`now`, `sha256Hex`).
    private(set) var calls: Set<String> = []

    func now() -> UInt64 {
        calls.insert("now")
        return clock
    }

    func sha256Hex(_ bytes: [UInt8]) -> String {
        calls.insert("sha256Hex")
        return "bytes-\(bytes.count)"
    }

    /// Instance ids of file number 1.
    static let firstInstanceID: UInt64 = 1 << 40 | 1

    /// Small limits, a single node, authors recorded.
    static let settings = WorkerSettings(
        limits: WorkerLimits(
            maxListLength: 100, maxStringBytes: 1024, maxInstancesPerFile: 1000, maxTargets: 10, maxSendQueueBytes: 64 << 10,
            historyBatches: 16),
        epoch: "e-1", defaultRate: 10.0, snapshotEvery: 1_000_000, recordsAuthors: true)
}

/// The daemon's directory as the test shell keeps it: the claims and name changes the core
/// asks for through actions (`claimTarget`, `targetNames`), performed as the daemon's
/// `Directory` does.
final class MockDirectory {
    private(set) var placement = Placement()

    func claimTarget(_ name: String, file: String, limit: Int) -> TargetClaim {
        placement.claimTarget(name, file: file, limit: limit)
    }

    func apply(_ change: TargetNameChange) {
        switch change {
        case .claim(let name, let file): _ = placement.claimTarget(name, file: file)
        case .release(let name): placement.releaseTarget(name)
        case .retire(let name, let file): placement.retireTarget(name, file: file)
        case .rememberRetired(let names, let file): placement.rememberRetired(names, file: file)
        }
    }
}

/// Every grant (the demo's anonymous connections).
struct AllGrants: RequestGrants {
    var mayCreate: Bool { true }
    func may(_ access: TargetAccess, on target: String, at path: String) -> Bool { true }
    func mayWithin(_ access: TargetAccess, on target: String, at path: String) -> Bool { true }
    func seesPresence(of target: String) -> Bool { true }
    var presenceOwner: PresenceOwner { .anonymous }
}

/// Drives a worker core with a file `demo` (view model `Room`: `title`, `count`; artboard
/// `Stage` with state machine `Main`) whose
/// instance is published as the auto target `room` (10 advances a second), and reads its
/// actions.
final class WorkerDriver {
    static let schema = FileSchema(
        viewModels: [
            ViewModelSchema(
                name: "Room", properties: [PropertySchema(name: "title", type: .string), PropertySchema(name: "count", type: .number)])
        ],
        artboards: [ArtboardSchema(name: "Stage", viewModelName: "Room", stateMachines: ["Main"])])

    let environment = MockWorkerEnvironment()
    /// The daemon's directory of target names, as the shell keeps it.
    let directory = MockDirectory()
    let log: MemoryChangeLog
    let core: WorkerCore
    /// Performs the core's log actions on `log` (see `CoreShell`).
    let shell: CoreShell
    private var nextID = 0

    init(log: MemoryChangeLog = MemoryChangeLog(retains: true), publish: Bool = true) throws {
        self.log = log
        core = WorkerCore(index: 0, of: 1, environment: environment, settings: MockWorkerEnvironment.settings)
        shell = CoreShell(core: core, log: log, directory: directory)
        core.load(Self.schema, as: "demo", firstInstanceID: MockWorkerEnvironment.firstInstanceID)
        guard publish else { return }
        guard case .instance(let instance, _) = try shell.commit(.createInstance(.blank(from: .name("Room"))), file: "demo") else {
            throw WireError.internalError("no instance")
        }
        try shell.settle(core.publish(instance, as: "room", file: "demo"))
        _ = shell.takeActions()
    }

    /// `target`'s kept batches, read back from their frames (`TargetRecord.batchHistory`).
    func history(of target: String) throws -> [ChangeBatch] {
        let record = try #require(core.targets[target])
        return try record.batchHistory(of: target, in: try #require(core.files[record.file]))
    }

    /// Feeds one event through the shell; returns the actions performed.
    @discardableResult
    func run(_ event: WorkerEvent) -> [WorkerAction] { shell.run(event) }

    /// The actions performed since the last call (after the daemon's own calls).
    func takeActions() -> [WorkerAction] { shell.takeActions() }

    /// Sends a request from `connection`; returns the actions.
    @discardableResult
    func request(_ body: ClientRequest, from connection: ConnectionID) -> [WorkerAction] {
        nextID += 1
        return run(
            .request(connection, Request(id: .number(Double(nextID)), body: body), sender: RequestSender(grants: AllGrants(), author: nil)))
    }

    func fire(_ timer: WorkerTimer) -> [WorkerAction] { run(.timerFired(timer)) }

    /// Sends the core its settings with `change` made (a reload).
    @discardableResult
    func configure(_ change: (inout WorkerSettings) -> Void) -> [WorkerAction] {
        var settings = core.settings
        change(&settings)
        return run(.configured(settings))
    }

    /// Another node's record, committed without a ticket; returns the actions.
    func commitOthers(_ record: JournalRecord) -> [WorkerAction] {
        run(.committed(file: "demo", record: record, ticket: nil, recordsSinceCompaction: 0))
    }

    /// Whether `actions` take back a record that did not apply.
    static func retracts(_ actions: [WorkerAction]) -> Bool {
        actions.contains { if case .retract = $0 { true } else { false } }
    }

    /// The messages sent to `connection`, decoded.
    static func messages(_ actions: [WorkerAction], to connection: ConnectionID) throws -> [JSONValue] {
        try actions.compactMap { action -> JSONValue? in
            guard case .send(let frame, let to) = action, to.contains(connection) else { return nil }
            return try JSONParser().parse(frame.bytes)
        }
    }

    /// The types of the messages sent to `connection`.
    static func types(_ actions: [WorkerAction], to connection: ConnectionID) throws -> [String] {
        try messages(actions, to: connection).map { $0["type"]?.stringValue ?? "?" }
    }

    /// The timers scheduled, with their times.
    static func timers(_ actions: [WorkerAction]) -> [(WorkerTimer, UInt64)] {
        actions.compactMap { action in
            guard case .schedule(let timer, let at) = action else { return nil }
            return (timer, at)
        }
    }

    /// The room's seq and digest (the model's own digest).
    func room() throws -> (seq: UInt64, digest: String) {
        let runtime = try #require(core.files["demo"])
        return (try runtime.target("room").seq, try runtime.digest(of: "room"))
    }
}
