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
            sender: RequestSender(grants: AllGrants(), author: nil))
    }

    /// Takes every action out of `list`, as the shell does when it performs them.
    static func performed(_ list: inout ActionList<WorkerAction>) -> [WorkerAction] {
        var taken: [WorkerAction] = []
        while let action = list.popFirst() { taken.append(action) }
        return taken
    }

    /// The ids of the replies to connection 1 among `list`'s actions, taken out of it.
    static func replyIDs(_ list: inout ActionList<WorkerAction>) throws -> [JSONValue?] {
        try WorkerDriver.messages(performed(&list), to: ConnectionID(1)).map { $0["id"] }
    }

    /// Runs subscribe `id` on `core` and gives its list back performed; the replies' ids.
    static func runAndGiveBack(_ id: Int, on core: WorkerCore) throws -> [JSONValue?] {
        var list = core.handle(subscribe(id))
        let ids = try replyIDs(&list)
        core.recycle(consume list)
        return ids
    }

    @Test func anEventsActionsGoIntoAListGivenBack() throws {
        let core = try WorkerDriver().core
        var first = core.handle(Self.subscribe(1))
        #expect(!Self.performed(&first).isEmpty)
        #expect(first.isEmpty && first.capacity > 0, "emptied by taking its actions, its storage kept")
        core.recycle(consume first)
        #expect(try Self.runAndGiveBack(2, on: core) == [2])
        var third = core.handle(Self.subscribe(3))
        #expect(try Self.replyIDs(&third) == [3])
    }

    @Test func actionsNotTakenAreDroppedWhenTheListIsGivenBack() throws {
        let core = try WorkerDriver().core
        core.recycle(core.handle(Self.subscribe(1)))
        #expect(try Self.runAndGiveBack(2, on: core) == [2])
        // The third event's list is the first one: it holds the third event's actions only.
        var third = core.handle(Self.subscribe(3))
        #expect(try Self.replyIDs(&third) == [3])
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
