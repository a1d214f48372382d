import Dispatch
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

/// A worker: one serial queue that owns some files, their instances and targets, the
/// targets' subscribers, batch history and pending acks. Everything below `context` is
/// touched only on `queue` (that is what makes `@unchecked Sendable` sound).
final class Worker: @unchecked Sendable {
    let index: Int
    let queue: DispatchQueue
    let context: ServerContext
    var files: [String: FileRuntime] = [:]
    var targets: [String: TargetRecord] = [:]
    var catchUpCheckScheduled = false
    /// Where this worker's files' changes are proposed and committed (see `ChangeLog`): the
    /// cluster's log on a cluster node, the file journals with a state directory, else a log in
    /// memory (or the log the daemon was given).
    let log: any ChangeLog
    /// The file journals, when the daemon has a state directory and no other log was given
    /// (`log` is this then).
    let fileLog: FileChangeLog?
    /// What each proposal in flight answers once the log has.
    var waiting: [LogTicket: Waiter] = [:]
    var lastTicket: UInt64 = 0
    /// Target names claimed for proposals in flight (their records claim nothing again).
    var reservedTargets: Set<String> = []
    /// True while a journal is being restored (no snapshot is written then).
    var replaying = false
    var syncScheduled = false

    /// `log`: the worker's change log; nil for the default (file journals with a state
    /// directory, else memory).
    init(index: Int, context: ServerContext, log: (any ChangeLog)? = nil) {
        self.index = index
        self.context = context
        self.queue = DispatchQueue(label: "rivesyncd.worker.\(index)")
        let fileLog = log != nil || context.stateDirectory == nil ? nil : FileChangeLog(log: context.log)
        self.fileLog = fileLog
        self.log = log ?? fileLog ?? MemoryChangeLog(retains: false)
        fileLog?.unsynced = { [unowned self] in scheduleSync() }
    }

    /// A target's daemon-side state.
    struct TargetRecord {
        var file: String
        var manual: Bool
        var rate: Double
        var lastAdvance: UInt64 = 0
        var scheduled = false
        var subscribers: [SessionID: Subscription] = [:]
        /// The latest batches, oldest first, at most `Limits.historyBatches`.
        var history: [HistoryEntry] = []
        /// Commands waiting for this target's next advance, in arrival order: proposed with
        /// it, and applied only once the log commits it.
        var queued: [QueuedCommand] = []
        /// Advances proposed and not yet answered by the log.
        var advancesInFlight = 0
        /// Commands queued on this target that wait for their advance, by command number.
        var pending: [UInt64: PendingAck] = [:]
    }

    struct Subscription {
        var paths: [String]?
        var lagging = false
    }

    struct PendingAck {
        var session: SessionID
        var requestID: JSONValue?
        /// The command's path when its sender may not read there (see `Grants.visible`).
        var hiddenPath: String?
    }

    struct HistoryEntry {
        var batch: ChangeBatch
        /// The batch as whole-target subscribers receive it.
        var payload: Payload
    }

    // MARK: Files

    /// Loads a schema as a file of this worker (on the queue).
    func load(_ schema: FileSchema, as name: String, number: UInt64) {
        files[name] = FileRuntime(schema: schema, limits: modelLimits(), firstInstanceID: number << Directory.fileIDShift | 1)
    }

    /// The model's limits from the daemon's current limits.
    func modelLimits() -> ModelLimits {
        let daemonLimits = context.limits.withLock { $0 }
        var limits = ModelLimits()
        limits.maxListLength = daemonLimits.maxListLength
        limits.maxStringBytes = daemonLimits.maxStringBytes
        limits.maxInstances = daemonLimits.maxInstancesPerFile
        return limits
    }

    /// Applies reloaded limits to the files already loaded.
    func refreshLimits() {
        let limits = modelLimits()
        for name in files.keys { files[name]!.limits = limits }
    }

    /// Checks that an instance id belongs to `file` on this worker.
    func checkInstance(_ id: InstanceID, in file: String) throws(WireError) {
        guard let owner = context.directory.file(of: id) else { throw WireError(StateMachineError.unknownInstance(id)) }
        guard owner.location.worker == index else {
            throw WireError(
                code: .wrongWorker,
                message: "instance \(id.rawValue) lives on worker \(owner.location.worker) (file '\(owner.name)'), the target on worker \(index)",
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
    func checkAttach(_ id: InstanceID, in file: String, to target: String, at path: String, grants: Grants) throws(WireError) {
        try checkInstance(id, in: file)
        let writes = grants.allowsWithin(.write, on: target, at: path)
        let fires = grants.allowsWithin(.fire, on: target, at: path)
        for (holder, paths) in files[file]!.exposure(of: id) {
            for shown in paths {
                guard grants.allows(.read, on: holder, at: shown), !writes || grants.allows(.write, on: holder, at: shown),
                    !fires || grants.allows(.fire, on: holder, at: shown)
                else { throw Self.notAnInstance(id, of: file) }
            }
        }
    }

    func runtime(_ file: String) throws(WireError) -> FileRuntime {
        guard let runtime = files[file] else { throw WireError(code: .unknownFile, message: "no file '\(file)'", details: [("file", .string(file))]) }
        return runtime
    }

    /// The listing entry of a target.
    func targetInfo(_ name: String) -> ServerMessage.TargetInfo? {
        guard let record = targets[name], let target = try? files[record.file]?.target(name) else { return nil }
        let kind: ServerMessage.TargetKind
        switch target.kind {
        case .stateMachine(let artboard, let stateMachine): kind = .stateMachine(artboard: artboard, stateMachine: stateMachine)
        case .publishedInstance: kind = .instance
        }
        return ServerMessage.TargetInfo(
            name: name, file: record.file, kind: kind, mode: record.manual ? .manual : .auto, rate: record.rate, seq: target.seq,
            bindings: target.bindings)
    }

    /// Listing entries of this worker's first `limit` targets by name after `after` that
    /// `shows` lets through.
    func targetInfos(after: String?, limit: Int, shows: (String) -> Bool) -> [(name: String, info: ServerMessage.TargetInfo)] {
        let names = targets.keys.filter { name in after.map { name > $0 } ?? true }.filter(shows).sorted().prefix(limit)
        return names.compactMap { name in targetInfo(name).map { (name, $0) } }
    }
}
