import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// The worker core with a mock clock and the in-memory log: pacing by timers, resume from a
/// cursor, catch-up after lag, a failed append, restore by replay, a deleted target — no
/// sockets, no threads, no sleeps.
@Suite struct WorkerCoreTests {
    static let alice = ConnectionID(1)
    static let bob = ConnectionID(2)

    static func set(_ value: Double) -> ClientRequest { .set(target: "room", path: "count", value: .number(value)) }

    @Test func anAutoTargetAdvancesAtMostRateTimesASecond() throws {
        let driver = try WorkerDriver()
        let start = driver.environment.clock
        let queued = driver.request(Self.set(1), from: Self.alice)
        #expect(WorkerDriver.timers(queued).map(\.1) == [start], "idle for a whole interval: due at once")
        #expect(try WorkerDriver.types(queued, to: Self.alice).isEmpty, "the ack waits for the advance")
        let first = driver.fire(.advance(target: "room"))
        #expect(try WorkerDriver.types(first, to: Self.alice) == ["ack"])
        driver.environment.clock += 10_000_000
        let second = driver.request(Self.set(2), from: Self.alice)
        #expect(WorkerDriver.timers(second).map(\.1) == [start + 100_000_000], "the next advance waits for the interval's end")
        driver.environment.clock += 10_000_000
        let third = driver.request(Self.set(3), from: Self.bob)
        #expect(WorkerDriver.timers(third).isEmpty, "one advance is scheduled already")
        driver.environment.clock = start + 100_000_000
        let both = driver.fire(.advance(target: "room"))
        let acks = try WorkerDriver.messages(both, to: Self.alice) + WorkerDriver.messages(both, to: Self.bob)
        #expect(acks.map { $0["type"] } == ["ack", "ack"])
        #expect(acks[0]["seq"] == acks[1]["seq"], "both commands applied in one batch: \(acks.map(\.jsonText))")
        #expect(try driver.room().seq == 2)
    }

    @Test func aSubscriberResumesFromItsCursorWithTheMissingBatches() throws {
        let driver = try WorkerDriver()
        let subscribed = try WorkerDriver.messages(
            driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.alice), to: Self.alice)
        let seq = try #require(subscribed.first?["seq"]?.intValue)
        #expect(subscribed.first?["type"] == "snapshot")
        for value in [1.0, 2.0] {
            driver.request(Self.set(value), from: Self.alice)
            driver.environment.clock += 200_000_000
            _ = driver.fire(.advance(target: "room"))
        }
        let resumed = try WorkerDriver.messages(
            driver.request(.subscribe(target: "room", paths: nil, cursor: Cursor(epoch: "e-1", seq: UInt64(seq))), from: Self.bob),
            to: Self.bob)
        #expect(resumed.map { $0["type"] } == ["subscribed", "batch", "batch"], "\(resumed.map(\.jsonText))")
        #expect(resumed.first?["resumed"] == true)
        #expect(resumed.dropFirst().map { $0["seq"]?.intValue } == [seq + 1, seq + 2])
        let otherEpoch = try WorkerDriver.messages(
            driver.request(.subscribe(target: "room", paths: nil, cursor: Cursor(epoch: "e-0", seq: 1)), from: ConnectionID(3)),
            to: ConnectionID(3))
        #expect(otherEpoch.map { $0["type"] } == ["snapshot"])
        #expect(otherEpoch.first?["resumed"] == false)
    }

    @Test func aLaggingSubscriberGetsNoBatchesThenACatchUpSnapshotOnceDrained() throws {
        let driver = try WorkerDriver()
        driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.bob)
        driver.shell.queued[Self.bob] = driver.core.settings.limits.maxSendQueueBytes
        driver.request(Self.set(1), from: Self.alice)
        let advanced = driver.fire(.advance(target: "room"))
        #expect(try WorkerDriver.types(advanced, to: Self.bob).isEmpty, "a lagging subscriber gets no batch")
        let check = try #require(WorkerDriver.timers(advanced).first)
        #expect(check.0 == .catchUpCheck && check.1 == driver.environment.clock + 20_000_000)
        driver.environment.clock = check.1
        let stillFull = driver.fire(.catchUpCheck)
        #expect(try WorkerDriver.types(stillFull, to: Self.bob).isEmpty)
        #expect(WorkerDriver.timers(stillFull).map(\.0) == [.catchUpCheck], "checked again while it lags")
        driver.shell.queued[Self.bob] = 0
        let drained = try WorkerDriver.messages(driver.fire(.catchUpCheck), to: Self.bob)
        #expect(drained.map { $0["type"] } == ["snapshot"])
        #expect(drained.first?["reason"] == "catchUp")
        #expect(drained.first?["seq"]?.intValue == Int(try driver.room().seq))
        driver.request(Self.set(2), from: Self.alice)
        driver.environment.clock += 200_000_000
        #expect(try WorkerDriver.types(driver.fire(.advance(target: "room")), to: Self.bob) == ["batch"], "batches resume")
    }

    @Test func aFailedAppendAnswersStorageFailedAndChangesNothing() throws {
        let driver = try WorkerDriver()
        let before = try driver.room()
        driver.request(Self.set(5), from: Self.alice)
        driver.log.failNext = LogFailure("disk full")
        let failed = try WorkerDriver.messages(driver.fire(.advance(target: "room")), to: Self.alice)
        #expect(failed.map { $0["type"] } == ["error"])
        #expect(failed.first?["code"] == "storage_failed")
        #expect(try driver.room() == before)
        let created = try WorkerDriver.messages(
            driver.request(.createInstance(file: "demo", source: .blank(from: .name("Room")), publish: nil), from: Self.alice),
            to: Self.alice)
        #expect(created.first?["type"] == "instance", "the log works again")
    }

    @Test func aReplayOfTheCommittedRecordsRebuildsTheSameState() throws {
        let original = try WorkerDriver()
        for value in [1.0, 2.0, 3.0] {
            original.request(Self.set(value), from: Self.alice)
            original.environment.clock += 200_000_000
            _ = original.fire(.advance(target: "room"))
        }
        original.request(.deleteTarget(target: "room"), from: Self.alice)
        let records = try #require(original.log.records["demo"])
        let replica = try WorkerDriver(publish: false)
        let highest = try replica.core.restore(
            WorkerDriver.schema, as: "demo", firstInstanceID: MockWorkerEnvironment.firstInstanceID, snapshot: nil,
            records: records.enumerated().map { (line: $0.offset + 1, record: $0.element) })
        #expect(highest == 3, "the highest command number replayed")
        #expect(replica.core.targets.isEmpty)
        #expect(
            replica.core.files["demo"].map { JournalCodec.encode($0.persistentState) }
                == original.core.files["demo"].map { JournalCodec.encode($0.persistentState) })
        let broken = try WorkerDriver(publish: false)
        #expect(throws: ReplayError.self) {
            try broken.core.restore(
                WorkerDriver.schema, as: "demo", firstInstanceID: MockWorkerEnvironment.firstInstanceID, snapshot: nil,
                records: [(line: 1, record: .deleteTarget("room"))])
        }
    }

    @Test func aDeletedTargetEndsItsSubscriptionsAndItsWaitingCommands() throws {
        let driver = try WorkerDriver()
        driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.bob)
        driver.request(Self.set(9), from: Self.bob)
        let deleted = driver.request(.deleteTarget(target: "room"), from: Self.alice)
        let toBob = try WorkerDriver.messages(deleted, to: Self.bob)
        #expect(toBob.map { $0["type"] } == ["unsubscribed", "error"], "\(toBob.map(\.jsonText))")
        #expect(toBob.first?["reason"] == "deleted")
        #expect(toBob.last?["code"] == "target_deleted")
        #expect(try WorkerDriver.types(deleted, to: Self.alice) == ["targetDeleted"])
        #expect(driver.core.targets["room"] == nil)
        #expect(deleted.contains { if case .count(.subscriptions(target: "room", delta: -1)) = $0 { true } else { false } })
        #expect(try WorkerDriver.types(driver.fire(.advance(target: "room")), to: Self.bob).isEmpty, "its timer finds nothing")
    }

    @Test func aClosedConnectionLeavesNoSubscriptionAndItsCommandsStillApply() throws {
        let driver = try WorkerDriver()
        driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.bob)
        driver.request(Self.set(4), from: Self.bob)
        let closed = driver.run(.closed(Self.bob))
        #expect(closed.contains { if case .count(.subscriptions(target: "room", delta: -1)) = $0 { true } else { false } })
        let advanced = driver.fire(.advance(target: "room"))
        #expect(try WorkerDriver.types(advanced, to: Self.bob).isEmpty, "no batch, no ack for a closed connection")
        #expect(try driver.room().seq == 1, "its command applied")
    }

    @Test func aRoutedRequestIsHandledAndASubscribeReportsWhetherItSucceeded() throws {
        let driver = try WorkerDriver()
        let failed = driver.request(.subscribe(target: "nowhere", paths: nil, cursor: nil), from: Self.alice)
        let reports = failed.compactMap { action -> Bool? in
            if case .subscribeAnswered(Self.alice, "nowhere", nil, let succeeded) = action { succeeded } else { nil }
        }
        #expect(reports == [false])
        #expect(failed.contains { if case .handled(Self.alice) = $0 { true } else { false } })
        #expect(try WorkerDriver.messages(failed, to: Self.alice).first?["code"] == "unknown_target")
    }

    @Test(arguments: [true, false]) func anotherNodesManualAdvanceTakesThisNodesQueueWhenShared(shared: Bool) throws {
        let driver = try WorkerDriver()
        driver.configure { $0.sharesManualAdvances = shared }
        let created = try driver.shell.commit(.createInstance(.blank(from: .name("Room"))), file: "demo")
        guard case .instance(let main, _) = created else { throw WireError.internalError("created \(created)") }
        _ = try driver.shell.settle(
            driver.core.createStateMachine(
                StateMachineRequest(file: "demo", name: "stage", artboard: "Stage", main: main, manual: true), grants: AllGrants()
            ).ticket)
        _ = driver.takeActions()
        let queued = driver.request(.set(target: "stage", path: "count", value: .number(1)), from: Self.alice)
        #expect(WorkerDriver.timers(queued).isEmpty, "a manual target waits for an advance")
        let other = QueuedCommand(id: 1_000, command: .set(path: "title", value: .string("from another node")))
        let applied = driver.commitOthers(.advance(target: "stage", commands: [other]))
        #expect(!WorkerDriver.retracts(applied), "another node's advance applies")
        let acks = try WorkerDriver.types(applied, to: Self.alice)
        #expect(acks == (shared ? ["ack"] : []), "\(acks)")
        #expect(driver.core.targets["stage"]?.queued.count == (shared ? 0 : 1))
    }

    /// A cluster node applies other nodes' advances too; `commandsQueued` counts only the
    /// commands this worker queued, so it returns to 0 (it went negative on the other nodes).
    @Test func commandsQueuedCountsOnlyThisWorkersCommands() throws {
        let driver = try WorkerDriver()
        func queuedDelta(_ actions: [WorkerAction]) -> Int {
            actions.reduce(0) { sum, action in
                guard case .count(.waiting(let delta, _)) = action else { return sum }
                return sum + delta
            }
        }
        let queued = queuedDelta(driver.request(Self.set(1), from: Self.alice))
        #expect(queued == 1)
        let other = QueuedCommand(id: 1_000, command: .set(path: "title", value: .string("from another node")))
        let applied = driver.commitOthers(.advance(target: "room", commands: [other]))
        #expect(!WorkerDriver.retracts(applied), "another node's advance applies")
        #expect(queuedDelta(applied) == 0, "another node's command was never queued here")
        let own = queuedDelta(driver.fire(.advance(target: "room")))
        #expect(queued + own == 0, "the own command, applied, is no longer queued")
    }

    /// A log of every file in one sequence (`compactsEveryFile`): when one file is due, every
    /// file of the worker is compacted at that record, so none pins the log's start.
    @Test func aLogOfEveryFileCompactsEveryFileWhenOneIsDue() throws {
        let log = OneSequenceLog()
        let driver = try WorkerDriver(log: MemoryChangeLog(retains: false), publish: false)
        let core = WorkerCore(
            index: 0, of: 1, environment: driver.environment, settings: driver.core.settings, compactsEveryFile: log.compactsEveryFile)
        let shell = CoreShell(core: core, log: log, directory: driver.directory)
        core.load(WorkerDriver.schema, as: "demo", firstInstanceID: MockWorkerEnvironment.firstInstanceID)
        core.load(WorkerDriver.schema, as: "other", firstInstanceID: 2 << 40 | 1)
        _ = try shell.commit(.createInstance(.blank(from: .name("Room"))), file: "demo")
        #expect(log.compacted.isEmpty, "not due yet")
        log.due = true
        _ = try shell.commit(.createInstance(.blank(from: .name("Room"))), file: "demo")
        #expect(log.compacted == ["demo", "other"])
    }
}

/// A log that commits at once, holds every file in one sequence, and is due when told.
final class OneSequenceLog: ChangeLog {
    var due = false
    private(set) var compacted: [String] = []

    func append(_ record: JournalRecord, file: String, ticket: LogTicket, sink: any LogSink) {
        sink.committed(file: file, record: record, ticket: ticket)
    }

    func retract(file: String) {}

    func compact(file: String, state: JSONValue, targets: [JournalSnapshot.Target]) throws(LogFailure) { compacted.append(file) }

    func recordsSinceCompaction(of file: String) -> Int { due ? Int.max : 0 }

    var compactsEveryFile: Bool { true }
}
