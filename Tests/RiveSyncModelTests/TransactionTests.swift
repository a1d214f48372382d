import RiveSyncModel
import Testing

/// Transactions: several commands of one target applied in one advance, in order, all or none.
@Suite struct TransactionTests {
    private static func queued(_ commands: [Command], from first: UInt64 = 1) -> [QueuedCommand] {
        commands.enumerated().map { QueuedCommand(id: first + UInt64($0.offset), command: $0.element) }
    }

    @Test func aThemeSwitchOfThreePropertiesIsOneBatch() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let theme = try #require(try runtime.target("sm").instance(in: .global("Theme")))
        try runtime.publish(theme, as: "theme")
        try runtime.enqueue(
            transaction: Self.queued([
                .set(path: "@Theme/name", value: .string("Dark")), .set(path: "@Theme/background", value: .color(0xFF12_1212)),
                .set(path: "str", value: .string("dark mode")),
            ]), on: "sm")
        let batches = try runtime.advance("sm")
        #expect(batches.map(\.target) == ["sm", "theme"])
        #expect(batches[0].applied == [1, 2, 3])
        #expect(batches[0].effects.map(\.paths) == [["@Theme/name"], ["@Theme/background"], ["str"]])
        #expect(batches[1].effects.map(\.paths) == [["name"], ["background"]], "the published theme sees both in its one batch")
    }

    /// One bad command of each kind refuses the whole transaction when it is queued: the
    /// error names the command's index, nothing is queued and nothing changes.
    @Test(arguments: [
        (Command.fire(path: "num"), PropertyError.typeMismatch(path: "num", expected: "trigger", actual: "number")),
        (.set(path: "boo", value: .number(1)), .typeMismatch(path: "boo", expected: "boolean", actual: "number")),
        (.listAppend(path: "lis", instance: InstanceID(999)), .unknownInstance(InstanceID(999))),
        (.listInsert(path: "lis", index: 9, instance: InstanceID(1)), .indexOutOfRange(path: "lis", index: 9, count: 2)),
        (.listRemoveAt(path: "lis", index: 2), .indexOutOfRange(path: "lis", index: 2, count: 2)),
        (.listRemove(path: "lis", instance: InstanceID(999)), .instanceNotInList(path: "lis", instance: InstanceID(999))),
        (.listSwap(path: "lis", index: 0, with: 5), .indexOutOfRange(path: "lis", index: 5, count: 2)),
        (.bind([Binding(slot: .global("Theme"), instance: InstanceID(999))]), .unknownInstance(InstanceID(999))),
    ])
    func oneBadCommandOfEachKindQueuesNothing(bad: Command, expected: PropertyError) throws {
        var runtime = try Fixtures.kitchenRuntime()
        let before = try runtime.digest(of: "sm")
        let commands: [Command] = [
            .set(path: "str", value: .string("changed")), .fire(path: "tri"), bad, .set(path: "num", value: .number(1)),
        ]
        do {
            try runtime.enqueue(transaction: Self.queued(commands), on: "sm")
            Issue.record("a transaction with a bad command was queued")
        } catch let error as TransactionError {
            #expect(error.index == 2)
            #expect(error.error == expected)
        }
        #expect(!runtime.hasQueuedCommands)
        #expect(try runtime.digest(of: "sm") == before, "the trial left no change behind")
        #expect(try runtime.advance("sm").isEmpty)
    }

    @Test func eachCommandIsCheckedAgainstTheStateTheOnesBeforeItLeave() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let child = try runtime.createInstance(.blank(from: .name("Child")))
        try runtime.enqueue(
            transaction: Self.queued([
                .listAppend(path: "lis", instance: child), .set(path: "lis/2/label", value: .string("new")),
                .listSwap(path: "lis", index: 0, with: 2),
            ]), on: "sm")
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.applied == [1, 2, 3] && batch.rejectedTransactions.isEmpty)
        #expect(try runtime.value(at: "lis/0/label", in: "sm") == .string("new"))
    }

    /// A transaction valid when queued that fails when applied (an earlier command changed the
    /// list) is undone entirely: values, trigger counts, bindings and the shared theme, with
    /// none of its effects in the batches, while the commands around it apply.
    @Test func aTransactionThatFailsWhenAppliedIsUndoneWithItsEffects() throws {
        var runtime = try Fixtures.kitchenRuntime(coalescing: .none)
        let theme = try #require(try runtime.target("sm").instance(in: .global("Theme")))
        try runtime.publish(theme, as: "theme")
        let dark = try runtime.createInstance(.name("Dark", from: .name("Theme")))
        var replica = Replica(snapshot: try runtime.snapshot(of: "sm"))
        try runtime.enqueue(QueuedCommand(id: 1, command: .listRemoveAt(path: "lis", index: 1)), on: "sm")
        try runtime.enqueue(
            transaction: Self.queued(
                [
                    .set(path: "@Theme/name", value: .string("Changed")), .fire(path: "tri"),
                    .bind([Binding(slot: .global("Theme"), instance: dark)]), .set(path: "@Theme/name", value: .string("Dark too")),
                    .listRemoveAt(path: "lis", index: 1),
                ], from: 2), on: "sm")
        try runtime.enqueue(QueuedCommand(id: 7, command: .set(path: "str", value: .string("after"))), on: "sm")
        let batches = try runtime.advance("sm")
        #expect(batches.map(\.target) == ["sm"], "the published theme saw nothing of the undone transaction")
        let batch = batches[0]
        #expect(batch.applied == [1, 7])
        #expect(batch.effects.map(\.paths) == [["lis"], ["str"]])
        #expect(
            batch.rejectedTransactions == [
                RejectedTransaction(
                    commands: [2, 3, 4, 5, 6], failure: TransactionError(index: 4, error: .indexOutOfRange(path: "lis", index: 1, count: 1))
                )
            ])
        #expect(batch.rejectedTransactions[0].failingCommand == 6)
        #expect(try runtime.target("sm").instance(in: .global("Theme")) == theme)
        #expect(try runtime.value(at: "@Theme/name", in: "sm") == .string("Light"))
        #expect(try runtime.value(at: "tri", in: "sm") == .trigger(0))
        #expect(try runtime.value(at: "name", in: "theme") == .string("Light"))
        try replica.apply(batch)
        #expect(replica.digest == (try runtime.digest(of: "sm")), "a replica applying the batch converges")
        // The theme is still reached through the main target's slot (the root index was put back).
        let after = try runtime.apply(.set(path: "name", value: .string("Later")), on: "theme", id: 8)
        #expect(after.target == "theme")
        #expect(try runtime.value(at: "@Theme/name", in: "sm") == .string("Later"))
    }

    @Test func aRejectedTransactionLeavesCommandsQueuedAfterItAlone() throws {
        var runtime = try Fixtures.kitchenRuntime()
        try runtime.enqueue(QueuedCommand(id: 1, command: .listRemoveAt(path: "lis", index: 0)), on: "sm")
        try runtime.enqueue(transaction: Self.queued([.listRemoveAt(path: "lis", index: 1)], from: 2), on: "sm")
        try runtime.enqueue(transaction: Self.queued([.fire(path: "tri"), .set(path: "num", value: .number(3))], from: 3), on: "sm")
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.applied == [1, 3, 4])
        #expect(batch.rejectedTransactions.map(\.commands) == [[2]])
        #expect(try runtime.value(at: "num", in: "sm") == .number(3))
    }

    @Test func authorsOfAppliedCommandsAreInTheBatch() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let qa = Author(client: "inspector/2.1", token: "qa")
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "num", value: .number(1)), author: qa), on: "sm")
        try runtime.enqueue(QueuedCommand(id: 2, command: .fire(path: "tri")), on: "sm")
        try runtime.enqueue(QueuedCommand(id: 3, command: .fire(path: "num"), author: qa), on: "sm")
        let kiosk = Author(client: "kiosk", token: nil)
        try runtime.enqueue(
            transaction: [QueuedCommand(id: 4, command: .set(path: "str", value: .string("k")), author: kiosk)], on: "sm")
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.applied == [1, 2, 4])
        #expect(batch.authors == [1: qa, 4: kiosk], "only applied commands, only those with an author")
    }

    @Test func aJournaledTransactionReplaysToTheSameBatch() throws {
        var original = try Fixtures.kitchenRuntime()
        var copy = original
        try original.enqueue(transaction: Self.queued([.fire(path: "tri"), .set(path: "num", value: .number(2))]), on: "sm")
        let queue = try original.target("sm").queue
        #expect(queue.map(\.transaction) == [1, 1])
        for command in queue { try copy.enqueue(command, on: "sm") }
        #expect(try original.advance("sm") == (try copy.advance("sm")))
    }
}
