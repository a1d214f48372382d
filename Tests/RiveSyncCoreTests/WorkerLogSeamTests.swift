import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// The change log as an action/event pair: the worker core emits `append`, `retract` and
/// `compact` and takes `committed` / `appendFailed` as events. A log double that records every
/// call shows the core makes none: each call is the shell's, performing an action, after
/// `handle` returned; acks and batches come only with the `committed` event.
@Suite struct WorkerLogSeamTests {
    static let alice = ConnectionID(1)

    /// A log that records its calls and answers nothing by itself (the test answers).
    final class RecordingLog: ChangeLog {
        private(set) var calls: [String] = []

        func append(_ record: JournalRecord, file: String, ticket: LogTicket, sink: any LogSink) {
            calls.append("append \(file) \(ticket)")
        }

        func retract(file: String) { calls.append("retract \(file)") }

        func compact(file: String, state: JSONValue, targets: [JournalSnapshot.Target]) throws(LogFailure) {
            calls.append("compact \(file)")
        }

        func recordsSinceCompaction(of file: String) -> Int {
            calls.append("recordsSinceCompaction \(file)")
            return 0
        }
    }

    /// A core of file `demo` with the target `room`, built through a shell on a memory log, and
    /// from then on driven directly: every event's actions are the test's to perform.
    static func core() throws -> (WorkerDriver, RecordingLog) {
        (try WorkerDriver(), RecordingLog())
    }

    static func appends(_ actions: [WorkerAction]) -> [(JournalRecord, String, LogTicket)] {
        actions.compactMap { action in
            guard case .append(let record, let file, let ticket) = action else { return nil }
            return (record, file, ticket)
        }
    }

    @Test func anAdvanceIsAnAppendActionAndItsAckWaitsForTheCommittedEvent() throws {
        let (driver, log) = try Self.core()
        let seq = try driver.room().seq
        _ = driver.core.handle(
            .request(
                Self.alice, Request(id: 1, body: .set(target: "room", path: "count", value: 5)),
                sender: RequestSender(grants: AllGrants(), author: nil)))
        let proposed = driver.core.handle(.timerFired(.advance(target: "room"))).actions
        #expect(log.calls.isEmpty, "the core called no log")
        let appends = Self.appends(proposed)
        try #require(appends.count == 1)
        guard case .advance(let target, let commands, _) = appends[0].0 else {
            Issue.record("not an advance: \(appends[0].0)")
            return
        }
        #expect(target == "room" && commands.count == 1)
        #expect(try WorkerDriver.types(proposed, to: Self.alice).isEmpty, "no ack before the log committed the advance")
        #expect(try driver.room().seq == seq, "nothing applied before the commit")

        let committed = driver.core.handle(
            .committed(file: appends[0].1, record: appends[0].0, ticket: appends[0].2, recordsSinceCompaction: 1)
        ).actions
        #expect(log.calls.isEmpty, "the core called no log while committing")
        #expect(try WorkerDriver.types(committed, to: Self.alice) == ["ack"])
        #expect(try driver.room().seq == seq + 1)
    }

    @Test func aFailedAppendIsAnEventThatRefusesTheRequest() throws {
        let (driver, log) = try Self.core()
        let proposed = driver.core.handle(
            .request(
                Self.alice, Request(id: 7, body: .createInstance(file: "demo", source: .blank(from: .name("Room")), publish: nil)),
                sender: RequestSender(grants: AllGrants(), author: nil))
        ).actions
        let append = try #require(Self.appends(proposed).first)
        #expect(try WorkerDriver.types(proposed, to: Self.alice).isEmpty)
        let failed = driver.core.handle(.appendFailed(file: append.1, ticket: append.2, failure: LogFailure("disk full"))).actions
        #expect(log.calls.isEmpty)
        let replies = try WorkerDriver.messages(failed, to: Self.alice)
        #expect(replies.map { $0["code"] } == ["storage_failed"], "\(replies.map(\.jsonText))")
        #expect(replies.first?["id"] == 7)
    }

    @Test func aRecordThatDoesNotApplyIsRetractedAndADueLogIsCompactedAsActions() throws {
        let (driver, log) = try Self.core()
        let rejected = driver.core.handle(
            .committed(file: "demo", record: .deleteTarget("nowhere"), ticket: nil, recordsSinceCompaction: 0)
        ).actions
        #expect(rejected.contains { if case .retract(file: "demo") = $0 { true } else { false } })
        let due = driver.core.handle(
            .committed(
                file: "demo", record: .createInstance(.blank(from: .name("Room"))), ticket: nil,
                recordsSinceCompaction: driver.core.settings.snapshotEvery)
        ).actions
        let compactions = due.compactMap { action -> String? in if case .compact(let file, _, _) = action { file } else { nil } }
        #expect(compactions == ["demo"])
        #expect(log.calls.isEmpty)
    }

    @Test func theShellPerformsTheActionsInOrderOnItsLog() throws {
        let driver = try WorkerDriver()
        let log = RecordingLog()
        let shell = CoreShell(core: driver.core, log: log, directory: driver.directory)
        _ = shell.run(
            .request(
                Self.alice, Request(id: 1, body: .set(target: "room", path: "count", value: 5)),
                sender: RequestSender(grants: AllGrants(), author: nil)))
        #expect(log.calls.isEmpty, "a queued command appends nothing")
        _ = shell.run(.timerFired(.advance(target: "room")))
        #expect(log.calls.count == 1)
        #expect(log.calls.first?.hasPrefix("append demo ticket ") == true, "\(log.calls)")
    }
}
