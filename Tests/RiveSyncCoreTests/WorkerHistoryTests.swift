import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// A target keeps its latest `historyBatches` batches (16 in the mock worker), oldest first,
/// however many it has made (a ring once full): a cursor inside them resumes with the batches
/// after it, and a cursor before them gets a snapshot.
@Suite struct WorkerHistoryTests {
    static let alice = ConnectionID(1)

    /// A worker whose target `room` has made `count` batches, one set each.
    static func room(batches count: Int) throws -> WorkerDriver {
        let driver = try WorkerDriver()
        for value in 1...count {
            driver.request(.set(target: "room", path: "count", value: .number(Double(value))), from: Self.alice)
            driver.environment.clock += 200_000_000
            _ = driver.fire(.advance(target: "room"))
        }
        return driver
    }

    @Test func theLatestBatchesAreKeptOldestFirst() throws {
        let limit = try WorkerDriver().core.settings.limits.historyBatches
        for count in [limit - 1, limit, limit + 1, 2 * limit + 5] {
            let driver = try Self.room(batches: count)
            let seqs = try driver.history(of: "room").map(\.seq)
            #expect(seqs == Array(UInt64(max(1, count - limit + 1))...UInt64(count)), "after \(count) batches")
        }
    }

    @Test func aCursorInsideTheKeptBatchesResumesAndOneBeforeThemGetsASnapshot() throws {
        let limit = try WorkerDriver().core.settings.limits.historyBatches
        let count = 2 * limit + 5
        let driver = try Self.room(batches: count)
        let inside = UInt64(count - 3)
        let resumed = try WorkerDriver.messages(
            driver.request(.subscribe(target: "room", paths: nil, cursor: Cursor(epoch: "e-1", seq: inside)), from: ConnectionID(2)),
            to: ConnectionID(2))
        #expect(resumed.first?["resumed"] == true)
        #expect(resumed.dropFirst().map { $0["seq"]?.intValue } == [count - 2, count - 1, count])
        let before = UInt64(count - limit - 1)
        let fresh = try WorkerDriver.messages(
            driver.request(.subscribe(target: "room", paths: nil, cursor: Cursor(epoch: "e-1", seq: before)), from: ConnectionID(3)),
            to: ConnectionID(3))
        #expect(fresh.map { $0["type"] } == ["snapshot"])
        #expect(fresh.first?["resumed"] == false)
    }
}

/// A target restored from a snapshot keeps its batches as the snapshot had them: a resume with
/// paths replays the same frames from it as from the worker that wrote the snapshot.
@Suite struct WorkerRestoredHistoryTests {
    static func resumed(_ driver: WorkerDriver, paths: [String]?, after seq: UInt64, as connection: ConnectionID) throws -> [JSONValue] {
        try WorkerDriver.messages(
            driver.request(.subscribe(target: "room", paths: paths, cursor: Cursor(epoch: "e-1", seq: seq)), from: connection),
            to: connection)
    }

    @Test(arguments: [nil, ["count"], ["title"]] as [[String]?])
    func aRestoredTargetResumesWithTheSameBatches(paths: [String]?) throws {
        let driver = try WorkerHistoryTests.room(batches: 5)
        driver.request(.set(target: "room", path: "title", value: "Hi"), from: WorkerHistoryTests.alice)
        driver.environment.clock += 200_000_000
        _ = driver.fire(.advance(target: "room"))
        let before = try Self.resumed(driver, paths: paths, after: 2, as: ConnectionID(2))
        driver.core.writeSnapshot("demo")
        _ = driver.takeActions()
        let snapshot = try #require(driver.log.snapshots["demo"])
        let restored = try WorkerDriver(publish: false)
        _ = try restored.core.restore(
            WorkerDriver.schema, as: "demo", firstInstanceID: MockWorkerEnvironment.firstInstanceID, snapshot: snapshot, records: [])
        let after = try Self.resumed(restored, paths: paths, after: 2, as: ConnectionID(2))
        #expect(after.first?["resumed"] == true && after.count == before.count, "\(after)")
        #expect(after.dropFirst().map(\.jsonText) == before.dropFirst().map(\.jsonText), "the same batches (the replies' ids differ)")
        #expect(try restored.history(of: "room") == driver.history(of: "room"))
        let expected = paths == ["title"] ? 1 : paths == ["count"] ? 3 : 4
        #expect(before.count == 1 + expected, "subscribed, then the batches: \(before)")
    }

    /// A kept batch that cannot be read back (a snapshot written before `freedInstances` that
    /// sets an instance freed since) does not stop the restore: the state is whole, the target
    /// keeps the batches after it, and a cursor before them gets a snapshot.
    @Test func aKeptBatchThatCannotBeReadDropsItAndTheOlderOnes() throws {
        let driver = try WorkerHistoryTests.room(batches: 5)
        driver.core.writeSnapshot("demo")
        _ = driver.takeActions()
        var snapshot = try #require(driver.log.snapshots["demo"])
        let index = try #require(snapshot.targets.firstIndex { $0.name == "room" })
        #expect(snapshot.targets[index].history.count == 5)
        snapshot.targets[index].history[1] = Self.settingAnUnknownInstance(snapshot.targets[index].history[1])
        let restored = try WorkerDriver(publish: false)
        _ = try restored.core.restore(
            WorkerDriver.schema, as: "demo", firstInstanceID: MockWorkerEnvironment.firstInstanceID, snapshot: snapshot, records: [])
        let warnings = restored.takeActions().compactMap { action -> String? in
            guard case .log(.warning, let message, _) = action else { return nil }
            return message
        }
        #expect(warnings == ["a kept batch of the snapshot cannot be read; the target keeps the later ones"])
        #expect(try restored.history(of: "room").map(\.seq) == [3, 4, 5])
        #expect(try restored.room().digest == driver.room().digest, "the state is whole")
        let resumed = try Self.resumed(restored, paths: nil, after: 2, as: ConnectionID(2))
        #expect(resumed.first?["resumed"] == true && resumed.dropFirst().map { $0["seq"]?.intValue } == [3, 4, 5], "\(resumed)")
        let fresh = try Self.resumed(restored, paths: nil, after: 1, as: ConnectionID(3))
        #expect(fresh.map { $0["type"] } == ["snapshot"] && fresh.first?["resumed"] == false, "\(fresh)")
    }

    /// A dropped batch's command numbers still count toward the restored worker's numbering
    /// (the snapshot's batches are where a restore finds them), also when it is the last one.
    @Test func theCommandsOfADroppedBatchStillCount() throws {
        let driver = try WorkerHistoryTests.room(batches: 3)
        driver.core.writeSnapshot("demo")
        _ = driver.takeActions()
        let whole = try #require(driver.log.snapshots["demo"])
        var damaged = whole
        let index = try #require(damaged.targets.firstIndex { $0.name == "room" })
        damaged.targets[index].history[2] = Self.settingAnUnknownInstance(damaged.targets[index].history[2])
        let highest = try [whole, damaged].map { snapshot in
            try WorkerDriver(publish: false).core.restore(
                WorkerDriver.schema, as: "demo", firstInstanceID: MockWorkerEnvironment.firstInstanceID, snapshot: snapshot, records: [])
        }
        #expect(highest[0] > 0 && highest[1] == highest[0], "\(highest)")
    }

    /// `batch` with the instance its `set` effect names replaced by one no store holds.
    static func settingAnUnknownInstance(_ batch: JSONValue) -> JSONValue {
        guard case .object(var members) = batch, let at = members.firstIndex(where: { $0.0 == "effects" }),
            case .array(let effects) = members[at].1
        else { return batch }
        members[at].1 = .array(
            effects.map { effect in
                guard case .object(var fields) = effect, let instance = fields.firstIndex(where: { $0.0 == "instance" }) else {
                    return effect
                }
                fields[instance].1 = 999
                return .object(fields)
            })
        return .object(members)
    }
}
