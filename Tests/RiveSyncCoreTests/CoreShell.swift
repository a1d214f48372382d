import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// A worker core's shell in tests: performs the core's log actions on a change log (and its
/// target-name changes on the mock directory) and hands the log's answers back to the core as
/// events, as the daemon's `WorkerShell` does; every action is kept, in the order a shell performs
/// them, for the test to read.
final class CoreShell: LogSink {
    let core: WorkerCore
    let log: any ChangeLog
    /// Where `targetNames` actions are performed.
    let directory: MockDirectory
    private var performed: [WorkerAction] = []

    init(core: WorkerCore, log: any ChangeLog, directory: MockDirectory) {
        self.core = core
        self.log = log
        self.directory = directory
    }

    /// Bytes each connection's send queue holds (what the transport would report): reported
    /// to the core before each event, as the daemon's `WorkerShell` does.
    var queued: [ConnectionID: Int] = [:]

    /// Feeds one event; returns every action performed since the last call that returned them.
    func run(_ event: WorkerEvent) -> [WorkerAction] {
        reportSendQueues()
        perform(core.handle(event).actions)
        return takeActions()
    }

    /// Reports `queued` for the connections the core asks to measure, as the daemon's `WorkerShell`
    /// does.
    private func reportSendQueues() {
        let total = queued.values.reduce(0, +)
        let measured = core.connectionsToMeasure(total: total)
        guard total != core.sendQueues.total || !measured.isEmpty else { return }
        var report = SendQueues(total: total)
        for connection in measured { report.connections[connection] = queued[connection] ?? 0 }
        perform(core.handle(.sendQueues(report)).actions)
    }

    /// The actions performed since the last call (the core's own leftovers performed first).
    func takeActions() -> [WorkerAction] {
        perform(core.takeActions().actions)
        defer { performed = [] }
        return performed
    }

    /// The daemon's own change: proposes `record` and returns what applying it did.
    func commit(_ record: JournalRecord, file: String) throws(WireError) -> Applied {
        try settle(core.proposeOwn(record, file: file))
    }

    /// Performs the actions of one of the daemon's own proposals (`publish`,
    /// `createStateMachine`, `proposeOwn`) and returns what applying it did.
    @discardableResult
    func settle(_ ticket: LogTicket) throws(WireError) -> Applied {
        perform(core.takeActions().actions)
        return try core.outcome(of: ticket)
    }

    private func perform(_ actions: [WorkerAction]) {
        for action in actions {
            performed.append(action)
            switch action {
            case .append(let record, let file, let ticket):
                log.append(record, file: file, ticket: ticket, sink: self)
            case .retract(let file):
                log.retract(file: file)
            case .targetNames(let change):
                directory.apply(change)
            case .claimTarget(let name, let file, let limit, let claim):
                reportSendQueues()
                perform(core.handle(.targetClaimed(claim: claim, directory.claimTarget(name, file: file, limit: limit))).actions)
            case .compact(let file, let state, let targets):
                do { try log.compact(file: file, state: state, targets: targets) } catch {
                    performed.append(.log(.error, "snapshot failed", [("file", file), ("error", "\(error)")]))
                }
            default:
                break
            }
        }
    }

    func committed(file: String, record: consuming JournalRecord, ticket: LogTicket?) {
        reportSendQueues()
        perform(
            core.handle(
                .committed(file: file, record: record, ticket: ticket, recordsSinceCompaction: log.recordsSinceCompaction(of: file))
            ).actions)
    }

    func appendFailed(file: String, ticket: LogTicket, failure: LogFailure) {
        reportSendQueues()
        perform(core.handle(.appendFailed(file: file, ticket: ticket, failure: failure)).actions)
    }
}
