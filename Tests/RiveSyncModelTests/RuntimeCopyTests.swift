import RiveSyncModel
import Testing

/// A runtime and its targets are values: their fields are shared between copies until one
/// changes (`SharedFields`), and a change to one copy is never seen by another.
@Suite struct RuntimeCopyTests {
    @Test func aCopyOfARuntimeKeepsItsStateWhenTheOtherChanges() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let before = runtime
        try runtime.apply(.set(path: "num", value: .number(1)))
        #expect(try runtime.value(at: "num", in: "sm") == .number(1))
        #expect(try before.value(at: "num", in: "sm") == .number(7))
        #expect(try runtime.target("sm").seq == 1)
        #expect(try before.target("sm").seq == 0)

        var copy = before
        try copy.enqueue(QueuedCommand(id: 2, command: .set(path: "num", value: .number(2))), on: "sm")
        #expect(copy.hasQueuedCommands)
        #expect(!before.hasQueuedCommands)
        #expect(!runtime.hasQueuedCommands)
        try copy.publish(try copy.mainInstance(), as: "shared")
        #expect(copy.targetNames.contains("shared"))
        #expect(!before.targetNames.contains("shared") && !runtime.targetNames.contains("shared"))
    }

    @Test func aTargetReadOutOfARuntimeKeepsItsStateWhenTheRuntimeChanges() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let target = try runtime.target("sm")
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "num", value: .number(1))), on: "sm")
        #expect(target.queue.isEmpty)
        #expect(try runtime.target("sm").queue.map(\.id) == [1])
        _ = try runtime.advance("sm")
        #expect(target.seq == 0)
        #expect(try runtime.target("sm").seq == 1)
        #expect(try runtime.target("sm").queue.isEmpty)
    }
}
