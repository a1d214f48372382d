import RiveSyncModel
import Testing

/// Deleting a target: what is freed with it, what is kept, and the generation of a name used
/// again.
@Suite struct RemovalTests {
    @Test func deletingATargetFreesWhatOnlyItHeldAndDropsItsQueue() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let dark = try runtime.createInstance(.name("Dark", from: .name("Theme")))
        let main = try runtime.createInstance(.name("Named", from: .name("All")))
        try runtime.createStateMachine(named: "room", artboard: "Main", main: main, globals: [("Theme", dark)])
        try runtime.createStateMachine(named: "lobby", artboard: "Main", globals: [("Theme", dark)])
        let roomOwned = runtime.store.closure(of: [main])
        let labels = try #require(try runtime.target("room").instance(in: .global("Labels")))
        let loose = try runtime.createInstance(.blank(from: .name("Other")))
        try runtime.enqueue(QueuedCommand(id: 9, command: .set(path: "num", value: .number(1))), on: "room")
        let before = runtime.store.instances.count

        let removal = try runtime.removeTarget("room")

        #expect(removal.dropped.map(\.id) == [9])
        #expect(Set(removal.freed) == Set(roomOwned + [labels]), "its main subtree and the Labels instance made for it")
        #expect(runtime.store.instances.count == before - removal.freed.count)
        #expect(runtime.store[dark] != nil, "the theme is still bound in lobby")
        #expect(runtime.store[loose] != nil, "an instance no target held is not touched")
        #expect(throws: StateMachineError.unknownTarget("room")) { try runtime.target("room") }
        #expect(runtime.targetNames == ["sm", "lobby"])
        #expect(try runtime.value(at: "@Theme/name", in: "lobby") == .string("Dark"))
    }

    @Test func anInstanceReferredToFromOutsideTheTargetIsKept() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let child = try runtime.createInstance(.name("First", from: .name("Child")))
        let loose = try runtime.createInstance(.blank(from: .name("Child")))
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "#\(loose.rawValue)/next", value: .viewModel(child))), on: "sm")
        _ = try runtime.advance("sm")
        #expect(runtime.store[loose]?.values["next"] == .viewModel(child))
        try runtime.publish(child, as: "child")
        let removal = try runtime.removeTarget("child")
        #expect(removal.freed.isEmpty, "a loose instance still refers to the child")
        #expect(runtime.store[child] != nil)
    }

    @Test func aNameUsedAgainStartsANewGenerationAtSeqZero() throws {
        var runtime = try Fixtures.kitchenRuntime()
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "num", value: .number(1))), on: "sm")
        _ = try runtime.advance("sm")
        #expect(try runtime.target("sm").seq == 1 && runtime.target("sm").generation == 0)
        _ = try runtime.removeTarget("sm")
        #expect(throws: StateMachineError.unknownTarget("sm")) { try runtime.removeTarget("sm") }
        try runtime.createStateMachine(artboard: "Main", stateMachine: "sm")
        #expect(try runtime.target("sm").seq == 0 && runtime.target("sm").generation == 1)
        #expect(try runtime.value(at: "num", in: "sm") == .number(7), "a fresh default instance")

        let restored = FileRuntime(schema: Fixtures.kitchen, restoring: runtime.persistentState)
        #expect(try restored.target("sm").generation == 1)
        #expect(restored.retiredTargets == ["sm": 0])
        #expect(restored.persistentState == runtime.persistentState)
    }

    /// Rooms that share `sm`'s Theme come and go under random commands: no live instance ever
    /// refers to a freed one, nothing a remaining target reaches is freed, and a replica of
    /// `sm` keeps converging.
    @Test func randomRoomsComeAndGoWithoutDanglingReferences() throws {
        var runtime = try Fixtures.kitchenRuntime()
        var replica = Replica(snapshot: try runtime.snapshot(of: "sm"))
        var random = RandomCommands(rng: SeededGenerator(seed: 2026))
        var rng = SeededGenerator(seed: 11)
        let theme = try #require(try runtime.target("sm").instance(in: .global("Theme")))
        var rooms: [String] = []
        var freedTotal = 0
        for step in 0..<600 {
            if rooms.count < 4 || Int.random(in: 0..<10, using: &rng) == 0 {
                let name = "room-\(step)"
                let share = Bool.random(using: &rng)
                try runtime.createStateMachine(named: name, artboard: "Main", globals: share ? [("Theme", theme)] : [])
                rooms.append(name)
            }
            let target = Bool.random(using: &rng) ? "sm" : rooms.randomElement(using: &rng)!
            try runtime.enqueue(QueuedCommand(id: UInt64(step), command: try random.next(in: &runtime)), on: target)
            for batch in try runtime.advance(target) where batch.target == "sm" { try replica.apply(batch) }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let victim = rooms.remove(at: Int.random(in: 0..<rooms.count, using: &rng))
                let removal = try runtime.removeTarget(victim)
                freedTotal += removal.freed.count
                let reachable = Set(
                    runtime.store.closure(
                        of: try runtime.targetNames.flatMap { name in
                            try runtime.target(name).bindings.compactMap(\.instance)
                        }))
                #expect(reachable.isDisjoint(with: removal.freed), "step \(step): freed something a target still reaches")
                for state in runtime.store.instances.values {
                    #expect(
                        state.children.allSatisfy { runtime.store[$0] != nil },
                        "step \(step): #\(state.id.rawValue) refers to a freed instance")
                }
            }
        }
        for batch in try runtime.advance("sm") { try replica.apply(batch) }
        #expect(replica.digest == (try runtime.digest(of: "sm")))
        #expect(freedTotal > 100, "rooms were freed (\(freedTotal) instances)")
        #expect(runtime.store[theme] != nil)
    }
}
