import RiveSyncModel
import Testing

/// `advance(_:queueing:elapsed:)`, the worker's one call per applied advance: the same batches
/// as queueing each command and then advancing, and the target as the advance left it.
@Suite struct AdvanceQueueingTests {
    @Test func itMakesTheBatchesOfEnqueueThenAdvance() throws {
        var queued = try Fixtures.kitchenRuntime()
        var once = try Fixtures.kitchenRuntime()
        let commands: QueuedCommands = [
            QueuedCommand(id: 1, command: .set(path: "num", value: .number(3))),
            QueuedCommand(id: 2, command: .set(path: "nope", value: .number(1))),
            QueuedCommand(id: 3, command: .fire(path: "tri")),
        ]
        for command in commands { try queued.enqueue(command, on: "sm") }
        let expected = try queued.advance("sm", elapsed: 0.25)
        let result = try once.advance("sm", queueing: commands, elapsed: 0.25)
        #expect(result.batches == expected)
        #expect(result.batches.first?.applied == [1, 3] && result.batches.first?.rejected.map(\.id) == [2])
        #expect(result.settled && result.generation == 0, "a target without a running state machine")
        #expect(try once.digest(of: "sm") == queued.digest(of: "sm"))
        #expect(!once.hasQueuedCommands)
    }

    @Test func anUnknownTargetQueuesNothing() throws {
        var runtime = try Fixtures.kitchenRuntime()
        #expect(throws: StateMachineError.unknownTarget("x")) {
            try runtime.advance("x", queueing: [QueuedCommand(id: 1, command: .fire(path: "tri"))], elapsed: 0)
        }
        #expect(!runtime.hasQueuedCommands)
    }

    /// The result's `settled` and `generation` are the target's after the advance, running or
    /// not, and for a target made again under a deleted one's name.
    @Test func itSaysWhatTheAdvanceLeft() throws {
        var runtime = try StateMachineCommandTests.triggers()
        var sawRunning = false
        for advance in 0..<20 {
            let commands: QueuedCommands = advance == 10 ? [QueuedCommand(id: 1, command: .fireInput(name: "Trigger 1"))] : []
            let result = try runtime.advance("legacy", queueing: commands, elapsed: 0.1)
            #expect(result.settled == runtime.isSettled("legacy"), "advance \(advance)")
            #expect(result.generation == 0)
            sawRunning = sawRunning || !result.settled
        }
        #expect(sawRunning)
        var again = try Fixtures.kitchenRuntime()
        try again.publish(try again.mainInstance(), as: "shared")
        _ = try again.removeTarget("shared")
        try again.publish(try again.mainInstance(), as: "shared")
        let result = try again.advance("shared", queueing: [QueuedCommand(id: 1, command: .fire(path: "tri"))], elapsed: 0)
        #expect(result.generation == 1 && result.generation == again.generation(of: "shared"))
    }
}
