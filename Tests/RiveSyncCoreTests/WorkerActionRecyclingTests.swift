import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol
import Testing

/// The shell gives back each list of actions once performed (`WorkerCore.recycle`): an event's
/// actions are written into one of those, not into storage allocated for the event.
struct WorkerActionRecyclingTests {
    static func subscribe(_ id: Int) -> WorkerEvent {
        .request(
            ConnectionID(1), Request(id: .number(Double(id)), body: .subscribe(target: "nowhere", paths: nil, cursor: nil)),
            grants: AllGrants())
    }

    /// Takes every action out of `list`, as the shell does when it performs them.
    static func performed(_ list: inout ActionList<WorkerAction>) -> [WorkerAction] {
        var taken: [WorkerAction] = []
        while let action = list.popFirst() { taken.append(action) }
        return taken
    }

    @Test func anEventsActionsGoIntoAListGivenBack() throws {
        let core = try WorkerDriver().core
        var first = core.handle(Self.subscribe(1))
        #expect(!Self.performed(&first).isEmpty)
        #expect(first.isEmpty && first.capacity > 0, "emptied by taking its actions, its storage kept")
        core.recycle(consume first)
        var second = core.handle(Self.subscribe(2))
        #expect(try WorkerDriver.messages(Self.performed(&second), to: ConnectionID(1)).map { $0["id"] } == [2])
        core.recycle(consume second)
        var third = core.handle(Self.subscribe(3))
        #expect(try WorkerDriver.messages(Self.performed(&third), to: ConnectionID(1)).map { $0["id"] } == [3])
    }

    @Test func actionsNotTakenAreDroppedWhenTheListIsGivenBack() throws {
        let core = try WorkerDriver().core
        let first = core.handle(Self.subscribe(1))
        core.recycle(first)
        var second = core.handle(Self.subscribe(2))
        _ = Self.performed(&second)
        core.recycle(consume second)
        // The third event's list is the first one: it holds the third event's actions only.
        var third = core.handle(Self.subscribe(3))
        #expect(try WorkerDriver.messages(Self.performed(&third), to: ConnectionID(1)).map { $0["id"] } == [3])
    }

    @Test func aListHeldElsewhereKeepsItsActionsAndALargeOneIsLetGo() throws {
        let core = try WorkerDriver().core
        let first = core.handle(Self.subscribe(1))
        let kept = first
        core.recycle(first)
        _ = core.handle(Self.subscribe(2))
        // `kept` still holds the first list's actions, as they were.
        #expect(try WorkerDriver.messages(kept.actions, to: ConnectionID(1)).map { $0["id"] } == [1])
        var large = ActionList<WorkerAction>()
        for _ in 0..<100 { large.append(.count(.catchUp)) }
        _ = Self.performed(&large)
        core.recycle(consume large)
        let next = core.handle(Self.subscribe(3))
        #expect(next.capacity < 100)
    }
}
