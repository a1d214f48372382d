import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// Events that carry where the worker keeps a record (a `NamedSlots` handle, a log ticket)
/// instead of its name: they find what they were made for, and nothing else once it is gone,
/// even when its slot holds something new.
@Suite struct WorkerHandleTests {
    static let alice = ConnectionID(1)
    static let bob = ConnectionID(2)

    static func set(_ target: String, _ value: Double) -> ClientRequest {
        .set(target: target, path: "count", value: .number(value))
    }

    static func appends(_ actions: [WorkerAction]) -> [(JournalRecord, String, LogTicket)] {
        actions.compactMap { action in
            guard case .append(let record, let file, let ticket) = action else { return nil }
            return (record, file, ticket)
        }
    }

    /// Publishes a new blank `Room` instance of `demo` as `name`.
    static func publish(_ name: String, in driver: WorkerDriver) throws {
        guard case .instance(let instance, _) = try driver.shell.commit(.createInstance(.blank(from: .name("Room"))), file: "demo") else {
            throw WireError.internalError("no instance")
        }
        try driver.shell.settle(driver.core.publish(instance, as: name, file: "demo"))
        _ = driver.takeActions()
    }

    @Test func anAdvanceTimerCarriesItsTargetsRecord() throws {
        let driver = try WorkerDriver()
        let record = try #require(driver.core.targets.handle(of: "room"))
        let timers = WorkerDriver.timers(driver.request(Self.set("room", 1), from: Self.alice))
        guard case .advance("room", .some(record))? = timers.first?.0 else {
            Issue.record("not the room's advance with its record: \(timers)")
            return
        }
        #expect(try WorkerDriver.types(driver.fire(timers[0].0), to: Self.alice) == ["ack"])
        #expect(try driver.room().seq == 1)
    }

    @Test func aTimerOfADeletedTargetAdvancesNothingInItsSlot() throws {
        let driver = try WorkerDriver()
        let timers = WorkerDriver.timers(driver.request(Self.set("room", 1), from: Self.alice))
        let stale = try #require(timers.first?.0)
        let old = try #require(driver.core.targets.handle(of: "room"))
        driver.request(.deleteTarget(target: "room"), from: Self.alice)
        try Self.publish("hall", in: driver)
        let hall = try #require(driver.core.targets.handle(of: "hall"))
        #expect(hall.slot == old.slot && hall != old, "the new target took the deleted one's slot")
        driver.request(.subscribe(target: "hall", paths: nil, cursor: nil), from: Self.bob)
        driver.request(Self.set("hall", 2), from: Self.bob)
        let fired = driver.fire(stale)
        #expect(try WorkerDriver.types(fired, to: Self.bob).isEmpty, "the deleted room's timer did not advance the hall")
        #expect(driver.core.targets["hall"]?.queued.count == 1)
        #expect(!driver.core.targets.contains(old))
    }

    @Test func aStaleTicketAnswersNoLaterProposal() throws {
        let driver = try WorkerDriver()
        func propose(_ value: Double, id: Int) throws -> (JournalRecord, String, LogTicket) {
            _ = driver.core.handle(
                .request(
                    Self.alice, Request(id: .number(Double(id)), body: Self.set("room", value)),
                    sender: RequestSender(grants: AllGrants(), author: nil)))
            return try #require(Self.appends(driver.core.handle(.timerFired(.advance(target: "room"))).actions).first)
        }
        let first = try propose(1, id: 1)
        let committed = driver.core.handle(.committed(file: first.1, record: first.0, ticket: first.2, recordsSinceCompaction: 1)).actions
        #expect(try WorkerDriver.types(committed, to: Self.alice) == ["ack"])
        driver.environment.clock += 1_000_000_000
        let second = try propose(2, id: 2)
        #expect(second.2 != first.2, "no two tickets alike, though the second reuses the first's slot")
        let late = driver.core.handle(.appendFailed(file: first.1, ticket: first.2, failure: LogFailure("late"))).actions
        #expect(try WorkerDriver.types(late, to: Self.alice).isEmpty, "the answered ticket answers nobody")
        let acked = driver.core.handle(.committed(file: second.1, record: second.0, ticket: second.2, recordsSinceCompaction: 2)).actions
        #expect(try WorkerDriver.messages(acked, to: Self.alice).map { $0["type"] } == ["ack"])
        #expect(try driver.room().seq == 2)
    }
}

/// `NamedSlots`: by name like a dictionary, by handle while the value is there.
@Suite struct NamedSlotsTests {
    @Test func aHandleHoldsWhileOthersComeAndGo() throws {
        var slots = NamedSlots<Int>()
        slots["a"] = 1
        slots["b"] = 2
        let b = try #require(slots.handle(of: "b"))
        slots["a"] = nil
        slots["c"] = 3
        slots["d"] = 4
        #expect(slots.contains(b) && slots[b] == 2 && slots.name(of: b) == "b")
        slots[b] += 10
        #expect(slots["b"] == 12)
        slots["b"] = 20
        #expect(slots[b] == 20, "a value replaced by name keeps its slot")
        #expect(slots.count == 3 && Set(slots.keys) == ["b", "c", "d"])
        #expect(Dictionary(uniqueKeysWithValues: slots.map { ($0.key, $0.value) }) == ["b": 20, "c": 3, "d": 4])
    }

    @Test func aRemovedValuesHandleFindsNothingInItsReusedSlot() throws {
        var slots = NamedSlots<String>()
        slots["a"] = "first"
        let a = try #require(slots.handle(of: "a"))
        slots["a"] = nil
        #expect(!slots.contains(a) && slots["a"] == nil && slots.isEmpty)
        slots["z"] = "second"
        let z = try #require(slots.handle(of: "z"))
        #expect(z.slot == a.slot && z != a && !slots.contains(a))
        slots["a"] = "third"
        #expect(!slots.contains(a), "the same name again is another value")
    }

    @Test func aValueChangesInPlaceByName() {
        var slots = NamedSlots<[Int]>()
        slots["list"] = [1]
        slots["list"]?.append(2)
        #expect(slots["list"] == [1, 2])
        slots["list"]!.removeAll()
        #expect(slots["list"] == [])
        slots["list"] = nil
        #expect(slots["list"] == nil && slots.count == 0)
    }
}

/// The acks a target's commands wait for (`PendingAcks`, kept in command order): each sender
/// gets its own, in order, whatever leaves the queue before.
@Suite struct WorkerPendingAckTests {
    static let alice = ConnectionID(1)
    static let bob = ConnectionID(2)

    @Test func manyQueuedCommandsAreAnsweredInOrderAfterASenderLeft() throws {
        let driver = try WorkerDriver()
        for value in 1...40 {
            driver.request(.set(target: "room", path: "count", value: .number(Double(value))), from: value % 2 == 0 ? Self.bob : Self.alice)
        }
        driver.run(.closed(Self.bob))
        let advanced = driver.fire(.advance(target: "room"))
        let acks = try WorkerDriver.messages(advanced, to: Self.alice)
        #expect(acks.map { $0["type"] } == Array(repeating: "ack", count: 20), "\(acks.map(\.jsonText))")
        #expect(acks.map { $0["id"]?.intValue } == Array(stride(from: 1, through: 39, by: 2)))
        #expect(try WorkerDriver.types(advanced, to: Self.bob).isEmpty, "the closed connection's acks are gone")
        #expect(try driver.room().seq == 1)
    }
}
