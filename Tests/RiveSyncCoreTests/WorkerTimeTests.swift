import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// A state machine's time in the worker core (PROTOCOL.md §18–19): a manual advance's
/// `elapsed` reaches the journal record and the reply says `settled`; an auto target whose
/// state machine is settled has no tick (no batch, no timer). The schema here describes no
/// state machine graph, so its state machines are always settled; the running cases are in
/// the daemon's tests with real `.riv` files.
@Suite struct WorkerTimeTests {
    static let alice = ConnectionID(1)

    /// `stage`'s kept batches in `core`, read back.
    static func history(of core: WorkerCore) throws -> [ChangeBatch] {
        let record = try #require(core.targets["stage"])
        return try record.batchHistory(of: "stage", in: try #require(core.files["demo"]))
    }

    /// A worker with the manual state machine target `stage`.
    static func manualStage() throws -> WorkerDriver {
        let driver = try WorkerDriver()
        let created = try driver.shell.commit(.createInstance(.blank(from: .name("Room"))), file: "demo")
        guard case .instance(let main, _) = created else { throw WireError.internalError("created \(created)") }
        _ = try driver.shell.settle(
            driver.core.createStateMachine(
                StateMachineRequest(file: "demo", name: "stage", artboard: "Stage", main: main, manual: true), grants: AllGrants()
            ).ticket)
        _ = driver.takeActions()
        return driver
    }

    static func lastAdvance(_ driver: WorkerDriver) -> (commands: Int, elapsed: Double)? {
        for record in (driver.log.records["demo"] ?? []).reversed() {
            if case .advance(_, let commands, let elapsed) = record { return (commands.count, elapsed) }
        }
        return nil
    }

    @Test func aManualAdvanceRecordsItsElapsedAndSaysSettled() throws {
        let driver = try Self.manualStage()
        driver.request(.set(target: "stage", path: "count", value: .number(1)), from: Self.alice)
        let advanced = try WorkerDriver.messages(driver.request(.advance(target: "stage", elapsed: 0.7), from: Self.alice), to: Self.alice)
        #expect(advanced.map { $0["type"] } == ["ack", "advanced"])
        #expect(advanced.last?["settled"] == true)
        #expect(advanced.last?["seq"] == 1)
        let recorded = try #require(Self.lastAdvance(driver))
        #expect(recorded.commands == 1 && recorded.elapsed == 0.7, "the journal runs the same 0.7 s on replay")
    }

    @Test func aSettledManualTargetsTimeAloneMakesNoRecord() throws {
        let driver = try Self.manualStage()
        let before = driver.log.records["demo"]?.count
        let reply = try WorkerDriver.messages(driver.request(.advance(target: "stage", elapsed: 5), from: Self.alice), to: Self.alice)
        #expect(reply.map { $0["type"] } == ["advanced"])
        #expect(reply.first?["seq"] == 0 && reply.first?["settled"] == true)
        #expect(driver.log.records["demo"]?.count == before, "nothing to run: nothing journaled")
    }

    /// An auto target whose state machine is settled advances for commands only, with 0 s, and
    /// schedules nothing afterwards: an idle, settled daemon has no timer.
    @Test func aSettledAutoTargetStopsTicking() throws {
        let driver = try WorkerDriver()
        let created = try driver.shell.commit(.createInstance(.blank(from: .name("Room"))), file: "demo")
        guard case .instance(let main, _) = created else { throw WireError.internalError("created \(created)") }
        _ = try driver.shell.settle(
            driver.core.createStateMachine(
                StateMachineRequest(file: "demo", name: "auto", artboard: "Stage", main: main, manual: false, rate: 10), grants: AllGrants()
            ).ticket)
        #expect(WorkerDriver.timers(driver.takeActions()).isEmpty, "a settled new state machine is not ticked")
        let queued = driver.request(.set(target: "auto", path: "count", value: .number(2)), from: Self.alice)
        #expect(WorkerDriver.timers(queued).count == 1, "a command schedules one advance")
        driver.environment.clock += 3_000_000_000
        let applied = driver.fire(.advance(target: "auto"))
        #expect(try WorkerDriver.types(applied, to: Self.alice) == ["ack"])
        #expect(WorkerDriver.timers(applied).isEmpty, "settled after it: no next tick")
        #expect(Self.lastAdvance(driver)?.elapsed == 0, "a settled state machine's advance runs no time, however long it idled")
        driver.environment.clock += 3_000_000_000
        let idle = driver.fire(.advance(target: "auto"))
        #expect(idle.allSatisfy { if case .send = $0 { false } else { true } }, "a stray timer finds nothing to run: no batch")
        #expect(WorkerDriver.timers(idle).isEmpty)
    }

    /// A restore replays each advance with its recorded seconds and ends with the same state.
    @Test func aRestoreReplaysTimedAdvances() throws {
        let driver = try Self.manualStage()
        for (value, elapsed) in [(1.0, 0.25), (2.0, 1.5)] {
            driver.request(.set(target: "stage", path: "count", value: .number(value)), from: Self.alice)
            driver.request(.advance(target: "stage", elapsed: elapsed), from: Self.alice)
        }
        let records = try #require(driver.log.records["demo"])
        let restored = WorkerCore(index: 0, of: 1, environment: MockWorkerEnvironment(), settings: MockWorkerEnvironment.settings)
        _ = try restored.restore(
            WorkerDriver.schema, as: "demo", firstInstanceID: MockWorkerEnvironment.firstInstanceID, snapshot: nil,
            records: records.enumerated().map { ($0.offset + 1, $0.element) })
        let original = try #require(driver.core.files["demo"])
        let replayed = try #require(restored.files["demo"])
        #expect(try replayed.target("stage").seq == original.target("stage").seq)
        #expect(try replayed.digest(of: "stage") == original.digest(of: "stage"))
        #expect(WorkerDriver.timers(restored.takeActions().actions).isEmpty, "nothing runs after it: no tick")
    }

    /// A snapshot's batch history keeps each batch's seconds (and the state machine's other
    /// members): a subscriber resuming after a restart gets the batches as they were.
    @Test func aSnapshotsHistoryKeepsTheSeconds() throws {
        let driver = try Self.manualStage()
        driver.request(.set(target: "stage", path: "count", value: .number(1)), from: Self.alice)
        driver.request(.advance(target: "stage", elapsed: 0.5), from: Self.alice)
        #expect(try Self.history(of: driver.core).last?.elapsed == 0.5)
        driver.core.writeSnapshot("demo")
        _ = driver.takeActions()
        let snapshot = try #require(driver.log.snapshots["demo"])
        let restored = WorkerCore(index: 0, of: 1, environment: MockWorkerEnvironment(), settings: MockWorkerEnvironment.settings)
        _ = try restored.restore(
            WorkerDriver.schema, as: "demo", firstInstanceID: MockWorkerEnvironment.firstInstanceID, snapshot: snapshot, records: [])
        let history = try Self.history(of: restored)
        #expect(history.last?.elapsed == 0.5, "\(history)")
        #expect(try history == Self.history(of: driver.core))
    }
}
