import RiveSyncModel
import Testing

@Suite struct AdvanceTests {
    @Test func nothingIsVisibleUntilAdvance() throws {
        var runtime = try Fixtures.kitchenRuntime()
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "num", value: .number(1))), on: "sm")
        #expect(try runtime.value(at: "num", in: "sm") == .number(7))
        #expect(runtime.hasQueuedCommands)
        _ = try runtime.advance("sm")
        #expect(try runtime.value(at: "num", in: "sm") == .number(1))
        #expect(!runtime.hasQueuedCommands)
    }

    @Test func emptyQueueGivesNoBatchAndSeqsAreConsecutive() throws {
        var runtime = try Fixtures.kitchenRuntime()
        #expect(try runtime.advance("sm").isEmpty)
        let first = try runtime.apply(.set(path: "num", value: .number(1)))
        let second = try runtime.apply(.set(path: "num", value: .number(2)))
        #expect(first.seq == 1 && second.seq == 2)
        #expect(throws: StateMachineError.unknownTarget("x")) { try runtime.advance("x") }
    }

    @Test func operationsApplyInArrivalOrderAndLaterOnesSeeEarlierOnes() throws {
        var runtime = try Fixtures.kitchenRuntime(coalescing: .none)
        let child = try runtime.createInstance(.blank(from: .name("Child")))
        let ops: [Command] = [
            .set(path: "str", value: .string("a")),
            .listAppend(path: "lis", instance: child),
            .set(path: "lis/2/label", value: .string("new item")),
            .fire(path: "tri"),
            .set(path: "str", value: .string("b")),
        ]
        for (i, op) in ops.enumerated() { try runtime.enqueue(QueuedCommand(id: UInt64(i), command: op), on: "sm") }
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.applied == [0, 1, 2, 3, 4])
        #expect(batch.effects.map(\.paths) == [["str"], ["lis"], ["lis/2/label"], ["tri"], ["str"]])
        #expect(try runtime.value(at: "lis/2/label", in: "sm") == .string("new item"))
    }

    @Test func coalescingKeepsOnlyTheLastWriteAtItsPosition() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let ops: [Command] = [
            .set(path: "num", value: .number(1)), .set(path: "str", value: .string("a")),
            .set(path: "num", value: .number(2)), .fire(path: "tri"), .fire(path: "tri"),
            .set(path: "num", value: .number(3)),
        ]
        for (i, op) in ops.enumerated() { try runtime.enqueue(QueuedCommand(id: UInt64(i), command: op), on: "sm") }
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.applied.count == 6, "every coalesced write is still acknowledged")
        let changes = batch.effects.map(\.change)
        let main = try runtime.mainInstance()
        #expect(
            changes == [
                .set(instance: main, property: "str", value: .string("a"), introduced: []),
                .fire(instance: main, property: "tri"), .fire(instance: main, property: "tri"),
                .set(instance: main, property: "num", value: .number(3), introduced: []),
            ])
    }

    @Test func triggersAreNeverLostAndCountFires() throws {
        var runtime = try Fixtures.kitchenRuntime()
        for i in 0..<5 { try runtime.enqueue(QueuedCommand(id: UInt64(i), command: .fire(path: "tri")), on: "sm") }
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.effects.count == 5)
        #expect(try runtime.value(at: "tri", in: "sm") == .trigger(5))
    }

    @Test func rejectedOperationsDoNotStopLaterOnes() throws {
        var runtime = try Fixtures.kitchenRuntime()
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "nope", value: .number(1))), on: "sm")
        try runtime.enqueue(QueuedCommand(id: 2, command: .set(path: "num", value: .number(1))), on: "sm")
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.rejected == [RejectedCommand(id: 1, error: .noSuchProperty(path: "nope"))])
        #expect(batch.applied == [2])
    }

    @Test func sharedGlobalChangeReachesEveryTargetThatBindsIt() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        let theme = try runtime.createInstance(.name("Light", from: .name("Theme")))
        try runtime.publish(theme, as: "theme")
        try runtime.createStateMachine(named: "a", artboard: "Main", globals: [("Theme", theme)])
        try runtime.createStateMachine(named: "b", artboard: "Main", globals: [("Theme", theme)])
        try runtime.createStateMachine(named: "c", artboard: "Main")
        let batches = try {
            try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "@Theme/name", value: .string("Dusk"))), on: "a")
            return try runtime.advance("a")
        }()
        #expect(batches.map(\.target) == ["theme", "a", "b"])
        #expect(batches.map { $0.effects.first?.paths } == [["name"], ["@Theme/name"], ["@Theme/name"]])
        #expect(batches.map(\.applied) == [[], [1], []])
        #expect(try runtime.value(at: "name", in: "theme") == .string("Dusk"))
        #expect(try runtime.value(at: "@Theme/name", in: "b") == .string("Dusk"))
        #expect(try runtime.value(at: "@Theme/name", in: "c") == .string("Light"))
        #expect(throws: StateMachineError.targetExists("theme")) { try runtime.publish(theme, as: "theme") }
    }

    @Test func sharedListItemReportsEveryPath() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let item = try runtime.createInstance(.blank(from: .name("Child")))
        try runtime.apply(.listAppend(path: "lis", instance: item))
        try runtime.apply(.listAppend(path: "chi/items", instance: item))
        let batch = try runtime.apply(.set(path: "lis/2/label", value: .string("both")))
        #expect(batch.effects.first?.paths == ["lis/2/label", "chi/items/1/label"])
    }
}
