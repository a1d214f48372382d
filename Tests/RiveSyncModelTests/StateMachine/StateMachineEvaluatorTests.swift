import RiveSyncModel
import Testing

@Suite struct StateMachineEvaluatorTests {
    private func runtime() throws -> FileRuntime {
        var runtime = FileRuntime(schema: try StateMachineGraphFixture.schema())
        try runtime.createStateMachine(artboard: "A", stateMachine: "sm")
        return runtime
    }

    @Test func theGraphReadsAsRiveImportsIt() throws {
        let graph = RiveGraph(objects: StateMachineGraphFixture.objects)
        let definition = try #require(StateMachineDefinition.build(from: graph, artboard: "A", stateMachine: "sm"))
        #expect(definition.layers.count == 1)
        #expect(definition.layers[0].states.map(\.kind) == [.entry, .animation, .animation, .any])
        #expect(definition.layers[0].entry == 0)
        #expect(definition.layers[0].any == 3)
        let condition = definition.layers[0].states[1].transitions[0].conditions
        #expect(condition == [.viewModel(left: .bindable(0), right: .trigger, operation: .notEqual)])
        #expect(definition.listeners.map(\.actions) == [[.viewModelChange(bindable: 1)]])
        #expect(definition.dataBinds.map(\.target) == [.bindable(0), .bindable(1)])
        #expect(StateMachineDefinition.build(from: graph, artboard: "A", stateMachine: "nope") == nil)
    }

    @Test func theFirstAdvanceLeavesTheEntryState() throws {
        var runtime = try runtime()
        let batches = try runtime.advance("sm", elapsed: 0)
        let layers = batches.first?.layers ?? []
        #expect(layers.map(\.state) == [1])
        #expect(runtime.layerStates("sm").map(\.animation) == ["idle"])
        #expect(!runtime.isSettled("sm"), "a looping animation keeps the state machine going")
    }

    @Test func aFiredTriggerMovesTheLayerOnceAndItsListenerWrites() throws {
        var runtime = try runtime()
        _ = try runtime.advance("sm", elapsed: 0)
        try runtime.enqueue(QueuedCommand(id: 1, command: .fire(path: "t")), on: "sm")
        let batch = try #require(try runtime.advance("sm", elapsed: 0.016).first)
        #expect(batch.layers.map(\.state) == [2])
        let made = batch.effects.filter { $0.origin == .stateMachine }
        let wroteFive = made.map(\.change).contains { if case .set(_, "n", .number(5), _) = $0 { true } else { false } }
        #expect(wroteFive)
        #expect(try runtime.value(at: "n", in: "sm") == .number(5))
        let next = try runtime.advance("sm", elapsed: 0.016)
        let moved = next.contains { !$0.layers.isEmpty }
        #expect(!moved, "a trigger is consumed by the advance that saw it")
    }

    @Test func aReplicaApplyingTheBatchesConverges() throws {
        var runtime = try runtime()
        var replica = Replica(snapshot: try runtime.snapshot(of: "sm"))
        for batch in try runtime.advance("sm", elapsed: 0) where batch.target == "sm" { try replica.apply(batch) }
        try runtime.enqueue(QueuedCommand(id: 1, command: .fire(path: "t")), on: "sm")
        for batch in try runtime.advance("sm", elapsed: 0.5) where batch.target == "sm" { try replica.apply(batch) }
        #expect(replica.digest == (try runtime.digest(of: "sm")))
    }

    @Test func theStateSurvivesARestart() throws {
        var runtime = try runtime()
        _ = try runtime.advance("sm", elapsed: 0)
        try runtime.enqueue(QueuedCommand(id: 1, command: .fire(path: "t")), on: "sm")
        _ = try runtime.advance("sm", elapsed: 0.25)
        let restored = FileRuntime(schema: runtime.schema, restoring: runtime.persistentState)
        #expect(restored.layerStates("sm") == runtime.layerStates("sm"))
        #expect(restored.persistentState == runtime.persistentState)
        let machine = try #require(try runtime.target("sm").stateMachine)
        var copy = StateMachineInstance(definition: machine.definition, graph: runtime.schema.graph)
        try copy.restore(from: machine.persistentJSON)
        #expect(copy.persistentJSON == machine.persistentJSON)
    }

    @Test func aPersistedStateThatDoesNotFitIsRefused() throws {
        let runtime = try runtime()
        let machine = try #require(try runtime.target("sm").stateMachine)
        var copy = machine
        #expect(throws: StateMachinePersistenceError.invalidMember("layers")) { try copy.restore(from: .object([])) }
        #expect(throws: StateMachinePersistenceError.self) { try copy.restore(from: .object([("layers", .array([]))])) }
    }

    @Test func aMalformedGraphNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        var seed = StateMachineGraphFixture.objects
        for _ in 0..<2000 {
            var objects = seed
            let index = Int.random(in: 0..<objects.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: objects.remove(at: index)
            case 1: objects.swapAt(index, Int.random(in: 0..<objects.count, using: &generator))
            case 2:
                let key = objects[index].properties.keys.randomElement(using: &generator) ?? 151
                objects[index].properties[key] = .uint(UInt64.random(in: 0...UInt64.max, using: &generator))
            default: objects[index].properties[151] = .bytes([0xFF, 0xFF])
            }
            let graph = RiveGraph(objects: objects)
            if let definition = StateMachineDefinition.build(from: graph, artboard: "A", stateMachine: "sm") {
                var machine = StateMachineInstance(definition: definition, graph: graph)
                var access = NoViewModels()
                _ = machine.advance(by: 0.1, access: &access)
                _ = machine.layerStates
            }
            if Bool.random(using: &generator) { seed = objects.isEmpty ? seed : objects }
        }
    }
}

/// An access with no bound instances: every path leads nowhere.
private struct NoViewModels: ViewModelAccess {
    var contexts: [InstanceID] = []
    func locate(_ path: [Int]) -> ValueLocation? { nil }
    func value(at location: ValueLocation) -> PropertyValue? { nil }
    func enumValues(at location: ValueLocation) -> [String] { [] }
    mutating func write(_ value: PropertyValue, at location: ValueLocation) -> Bool { false }
    mutating func fire(at location: ValueLocation) {}
}
