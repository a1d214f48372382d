import Testing

@testable import RiveSyncModel

/// A target keeps whether it has a state machine, and whether that is settled, beside it
/// (asking the optional would copy the state machine): the kept answers follow every change.
struct TargetStateMachineFlagsTests {
    @Test func theKeptAnswersFollowTheStateMachine() throws {
        var runtime = try StateMachineCommandTests.triggers()
        var sawRunning = false
        for advance in 0..<20 {
            let target = try runtime.target("legacy")
            #expect(target.hasStateMachine && target.stateMachine != nil)
            #expect(target.isSettled == target.stateMachine!.isSettled, "advance \(advance)")
            sawRunning = sawRunning || !target.isSettled
            if advance == 10 { try runtime.enqueue(QueuedCommand(id: 1, command: .fireInput(name: "Trigger 1")), on: "legacy") }
            _ = try runtime.advance("legacy", elapsed: 0.1)
        }
        #expect(sawRunning)
        var published = try Fixtures.kitchenRuntime()
        try published.publish(try published.mainInstance(), as: "shared")
        let shared = try published.target("shared")
        #expect(!shared.hasStateMachine && shared.isSettled)
    }
}
