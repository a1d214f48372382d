import Foundation
import RiveFile
import RiveSyncModel
import Testing

/// The runtime's side of PROTOCOL.md §6, §8 and §19: input commands (`setInput`, `fireInput`)
/// queued and applied on an advance like writes, a state machine made with empty slots
/// (`bindDefaults: false`) and bound later, and the batch of the advance that settles it.
@Suite struct StateMachineCommandTests {
    /// state_machine_triggers.riv (the `legacy_input_triggers` trace's file): trigger input
    /// `Trigger 1` takes layer 0 from its entry state (3) to state 2, then to state 1.
    static func triggers() throws -> FileRuntime {
        let path = Fixtures.packageRoot + "/../shared/fixtures/riv/state_machine_triggers.riv"
        var runtime = FileRuntime(schema: try RiveFileReader.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        try runtime.createStateMachine(named: "legacy", artboard: "main")
        return runtime
    }

    @Test func aFiredInputAppliesOnTheNextAdvanceAsACommand() throws {
        var runtime = try Self.triggers()
        #expect(runtime.inputStates("legacy") == [StateMachineInputState(name: "Trigger 1", kind: .trigger, value: nil)])
        _ = try runtime.advance("legacy", elapsed: 0.1)
        #expect(runtime.layerStates("legacy").map(\.state) == [3])
        try runtime.enqueue(QueuedCommand(id: 1, command: .fireInput(name: "Trigger 1")), on: "legacy")
        #expect(runtime.layerStates("legacy").map(\.state) == [3], "queued, not applied")
        let batch = try #require(try runtime.advance("legacy", elapsed: 0.1).first)
        #expect(batch.applied == [1] && batch.effects.isEmpty, "acked, with no effect of its own")
        #expect(runtime.layerStates("legacy").map(\.state) == [2])
        try runtime.enqueue(QueuedCommand(id: 2, command: .fireInput(name: "Trigger 1")), on: "legacy")
        _ = try runtime.advance("legacy", elapsed: 0.1)
        #expect(runtime.layerStates("legacy").map(\.state) == [1])
    }

    @Test func inputCommandsThatDoNotFitAreRefused() throws {
        let runtime = try Self.triggers()
        #expect(throws: StateMachineInputError.noSuchInput(target: "legacy", name: "Nope")) {
            try runtime.validate(.fireInput(name: "Nope"), on: "legacy")
        }
        #expect(throws: StateMachineInputError.typeMismatch(name: "Trigger 1", expected: "trigger", actual: "number")) {
            try runtime.validate(.setInput(name: "Trigger 1", value: .number(1)), on: "legacy")
        }
        var published = try Fixtures.kitchenRuntime()
        try published.publish(try published.mainInstance(), as: "shared")
        #expect(throws: StateMachineInputError.noSuchInput(target: "shared", name: "Trigger 1")) {
            try published.validate(.fireInput(name: "Trigger 1"), on: "shared")
        }
    }

    @Test func aStateMachineMadeUnboundAdvancesThenABindFillsItsSlots() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        try runtime.createStateMachine(named: "unbound", artboard: "Main", stateMachine: "sm", bindDefaults: false)
        let bindings = try runtime.target("unbound").bindings
        #expect(!bindings.isEmpty && bindings.allSatisfy { $0.instance == nil }, "\(bindings)")
        #expect(runtime.store.instances.isEmpty, "no default instance made")
        #expect(try runtime.advance("unbound", elapsed: 0.5).isEmpty)
        let main = try runtime.createInstance(.viewModelDefault(from: .name("All")))
        let batch = try runtime.apply(.bind([Binding(slot: .main, instance: main)]), on: "unbound")
        #expect(batch.applied == [1])
        #expect(try runtime.mainInstance(of: "unbound") == main)
    }

    /// The advance that settles a state machine has a batch even when it changed nothing else,
    /// so a subscriber learns it settled; a settled state machine's advance has none.
    @Test func theSettlingAdvanceHasABatch() throws {
        var runtime = try Self.triggers()
        #expect(!runtime.isSettled("legacy"), "a new state machine stands in its entry state")
        var advances = 0
        while !runtime.isSettled("legacy") && advances < 100 {
            let batches = try runtime.advance("legacy", elapsed: 0.1)
            advances += 1
            if runtime.isSettled("legacy") {
                let batch = try #require(batches.first, "the settling advance has a batch")
                #expect(batch.settled)
            }
        }
        #expect(runtime.isSettled("legacy"))
        #expect(try runtime.advance("legacy", elapsed: 0.1).isEmpty)
    }
}
