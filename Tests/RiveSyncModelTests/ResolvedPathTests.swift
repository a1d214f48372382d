import RiveSyncModel
import Testing

/// A command's path is resolved once, when it is checked: the command carries where it led
/// (`QueuedCommand.resolved`) and applying it uses that while it still holds: the state is
/// at the revision it was resolved at, or the property is on the instance the path starts at
/// and the path still starts there; otherwise the path is resolved again.
@Suite struct ResolvedPathTests {
    @Test func aResolutionAtTheCurrentRevisionIsUsedAsIs() throws {
        var runtime = try PathEscapeTests.runtime()
        // Where `a~0b` leads, given to a set of another path: applying it proves the path
        // itself is not resolved again (it would lead to a boolean and refuse the number).
        let elsewhere = try runtime.resolve(ParsedPath("a~0b"), inTarget: "sm")
        #expect(elsewhere.revision == runtime.store.revision)
        try runtime.enqueue(
            QueuedCommand(id: 1, command: .set(path: "BG On~1Off", value: .number(5)), resolved: elsewhere), on: "sm")
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.rejected.isEmpty, "\(batch.rejected)")
        #expect(batch.effects.flatMap(\.paths) == ["a~0b"])
        #expect(try runtime.value(at: "a~0b", in: "sm") == .number(5))
        #expect(try runtime.value(at: "BG On~1Off", in: "sm") == .boolean(false))
    }

    /// A property of the instance the path starts at stays where it is whatever else changes:
    /// the resolution is kept while the path starts at the same instance, its value read again.
    @Test func aDirectResolutionOutlivesOtherChangesWithItsValueReadAgain() throws {
        var runtime = try PathEscapeTests.runtime()
        let earlier = try runtime.resolve(ParsedPath("a~0b"), inTarget: "sm")
        #expect(earlier.isDirect && earlier.start == .slot(.main))
        _ = try runtime.apply(.set(path: "a~0b", value: .number(1)))
        _ = try runtime.apply(.set(path: "Sub~1Part/x~1y", value: .number(2)), id: 2)
        #expect(runtime.store.revision != earlier.revision, "the state changed")
        try runtime.enqueue(QueuedCommand(id: 3, command: .set(path: "BG On~1Off", value: .number(1)), resolved: earlier), on: "sm")
        let same = try #require(try runtime.advance("sm").first)
        #expect(same.rejected.isEmpty && same.effects.isEmpty, "a~b holds 1 already (read again): nothing to write, \(same)")
        try runtime.enqueue(QueuedCommand(id: 4, command: .set(path: "BG On~1Off", value: .number(7)), resolved: earlier), on: "sm")
        let kept = try #require(try runtime.advance("sm").first)
        #expect(kept.effects.flatMap(\.paths) == ["a~0b"], "still led where it did: \(kept)")
    }

    /// A new main binding moves where a path of the main slot leads: resolved again.
    @Test func aResolutionWhoseSlotWasRebound() throws {
        var runtime = try PathEscapeTests.runtime()
        let earlier = try runtime.resolve(ParsedPath("a~0b"), inTarget: "sm")
        let panel = try runtime.createInstance(.blank(from: .name("Panel")))
        try runtime.bind("sm", main: panel, globals: [], commandID: 1)
        _ = try runtime.advance("sm")
        try runtime.enqueue(QueuedCommand(id: 2, command: .set(path: "a~0b", value: .number(4)), resolved: earlier), on: "sm")
        _ = try runtime.advance("sm")
        #expect(runtime.store[panel]?.values["a~b"] == .number(4), "the new main")
        #expect(runtime.store[earlier.instance]?.values["a~b"] == .number(0), "not the one bound before")
    }

    /// Commands queued behind others: a list item's path resolved before a swap leads to the
    /// other item once the swap applied, and the set goes there.
    @Test func aPathBehindASwapLeadsWhereTheSwapLeftIt() throws {
        var runtime = try PathEscapeTests.runtime()
        let first = try runtime.createInstance(.blank(from: .name("Part")))
        let second = try runtime.createInstance(.blank(from: .name("Part")))
        _ = try runtime.apply(.listAppend(path: "items~1all", instance: first))
        _ = try runtime.apply(.listAppend(path: "items~1all", instance: second), id: 2)
        let before = try runtime.resolve(ParsedPath("items~1all/0/x~1y"), inTarget: "sm")
        #expect(before.instance == first && !before.isDirect)
        #expect(before.path == ParsedPath("items~1all/0/x~1y"), "kept parsed, to be resolved again without a split")
        try runtime.enqueue(QueuedCommand(id: 3, command: .listSwap(path: "items~1all", index: 0, with: 1)), on: "sm")
        try runtime.enqueue(
            QueuedCommand(id: 4, command: .set(path: "items~1all/0/x~1y", value: .number(9)), resolved: before), on: "sm")
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.rejected.isEmpty, "\(batch.rejected)")
        #expect(runtime.store[second]?.values["x/y"] == .number(9), "the item now first")
        #expect(runtime.store[first]?.values["x/y"] == .number(0))
    }

    @Test func everyChangeOfTheStoreOrOfABindingMovesTheRevision() throws {
        var runtime = try PathEscapeTests.runtime()
        var revision = runtime.store.revision
        _ = try runtime.apply(.set(path: "a~0b", value: .number(2)))
        #expect(runtime.store.revision > revision, "a set")
        revision = runtime.store.revision
        let panel = try runtime.createInstance(.blank(from: .name("Panel")))
        #expect(runtime.store.revision > revision, "a new instance")
        revision = runtime.store.revision
        try runtime.bind("sm", main: panel, globals: [], commandID: 3)
        _ = try runtime.advance("sm")
        #expect(runtime.store.revision > revision, "a binding")
        revision = runtime.store.revision
        _ = try runtime.apply(.set(path: "a~0b", value: .number(5)), id: 4)
        #expect(runtime.store.revision > revision, "a set on the newly bound main")
        revision = runtime.store.revision
        _ = try runtime.apply(.set(path: "a~0b", value: .number(5)), id: 5)
        #expect(runtime.store.revision == revision, "a write of the value already there changes nothing")
    }
}
