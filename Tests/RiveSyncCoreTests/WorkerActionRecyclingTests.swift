import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol
import Testing

/// The shell gives back each array of actions once performed (`WorkerCore.recycle`): an event's
/// actions are written into one of those, not into an array allocated for the event.
struct WorkerActionRecyclingTests {
    static func subscribe(_ id: Int) -> WorkerEvent {
        .request(
            ConnectionID(1), Request(id: .number(Double(id)), body: .subscribe(target: "nowhere", paths: nil, cursor: nil)),
            grants: AllGrants())
    }

    static func storage(of actions: [WorkerAction]) -> UnsafeRawPointer? {
        actions.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func anEventsActionsGoIntoAnArrayGivenBack() throws {
        let core = try WorkerDriver().core
        let first = core.handle(Self.subscribe(1))
        let firstStorage = Self.storage(of: first)
        #expect(!first.isEmpty)
        core.recycle(consume first)
        let second = core.handle(Self.subscribe(2))
        // The outbox in use when `first` was taken was not given back: the second array is new.
        #expect(Self.storage(of: second) != firstStorage)
        core.recycle(consume second)
        let third = core.handle(Self.subscribe(3))
        #expect(Self.storage(of: third) == firstStorage)
        #expect(try WorkerDriver.messages(third, to: ConnectionID(1)).map { $0["id"] } == [3])
    }

    @Test func anArrayHeldElsewhereKeepsItsActionsAndALargeOneIsLetGo() throws {
        let core = try WorkerDriver().core
        let first = core.handle(Self.subscribe(1))
        let kept = first
        core.recycle(first)
        _ = core.handle(Self.subscribe(2))
        // `kept` still holds the first array's actions, as they were.
        #expect(try WorkerDriver.messages(kept, to: ConnectionID(1)).map { $0["id"] } == [1])
        var large: [WorkerAction] = []
        large.reserveCapacity(100)
        core.recycle(consume large)
        let next = core.handle(Self.subscribe(3))
        #expect(next.capacity < 100)
    }
}
