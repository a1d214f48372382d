import RiveSyncModel
import Testing

/// A resolution keeps where it found the value in the store (its instance's and its value's
/// positions) and a set applies there, without hashing the instance and the property again,
/// for as long as the store holds the same instances with the same properties; after any
/// instance is added, replaced or removed, or when the resolution is changed by hand, the
/// value is found by name again.
@Suite struct ResolvedPositionTests {
    @Test func aSetCheckedBeforeInstancesWereAddedAppliesToItsProperty() throws {
        var runtime = try PathEscapeTests.runtime()
        let earlier = try runtime.resolve(ParsedPath("a~0b"), inTarget: "sm")
        // Enough new instances to grow the store's table: positions found before it are stale.
        let parts = try (0..<40).map { _ in try runtime.createInstance(.blank(from: .name("Part"))) }
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "a~0b", value: .number(5)), resolved: earlier), on: "sm")
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.rejected.isEmpty, "\(batch.rejected)")
        #expect(try runtime.value(at: "a~0b", in: "sm") == .number(5))
        #expect(parts.allSatisfy { runtime.store[$0]?.values == ["x/y": .number(0)] })
    }

    /// A copy of the runtime shares the store's positions until one of them changes its
    /// layout: a resolution found before applies in both, by position in the one that kept it.
    @Test func aResolutionAppliesInACopyThatChangedItsLayoutAndInOneThatDidNot() throws {
        var runtime = try PathEscapeTests.runtime()
        let earlier = try runtime.resolve(ParsedPath("a~0b"), inTarget: "sm")
        var copy = runtime
        let part = try copy.createInstance(.blank(from: .name("Part")))
        _ = try copy.apply(.listAppend(path: "items~1all", instance: part))
        for (id, value) in [(UInt64(2), Float(6)), (3, 7)] {
            try copy.enqueue(QueuedCommand(id: id, command: .set(path: "a~0b", value: .number(value)), resolved: earlier), on: "sm")
            try runtime.enqueue(
                QueuedCommand(id: id, command: .set(path: "a~0b", value: .number(value + 10)), resolved: earlier), on: "sm")
            #expect(try copy.advance("sm").first?.rejected == [])
            #expect(try runtime.advance("sm").first?.rejected == [])
            #expect(try copy.value(at: "a~0b", in: "sm") == .number(value))
            #expect(try runtime.value(at: "a~0b", in: "sm") == .number(value + 10))
        }
        #expect(copy.store[part]?.values == ["x/y": .number(0)])
    }

    /// A resolution moved to another instance by hand leads there, not to where it was found.
    @Test func aResolutionChangedByHandForgetsWhereItWasFound() throws {
        var runtime = try PathEscapeTests.runtime()
        let other = try runtime.createInstance(.blank(from: .name("Panel")))
        var moved = try runtime.resolve(ParsedPath("a~0b"), inTarget: "sm")
        let main = moved.instance
        moved.instance = other
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "a~0b", value: .number(5)), resolved: moved), on: "sm")
        let batch = try #require(try runtime.advance("sm").first)
        #expect(batch.rejected.isEmpty, "\(batch.rejected)")
        #expect(runtime.store[other]?.values["a~b"] == .number(5))
        #expect(runtime.store[main]?.values["a~b"] == .number(0), "not where it was found")
    }

    /// Where a resolution found its value is not part of what it says.
    @Test func positionsAreLeftOutOfEqualityAndHashing() throws {
        let runtime = try PathEscapeTests.runtime()
        let found = try runtime.resolve(ParsedPath("a~0b"), inTarget: "sm")
        let made = ResolvedProperty(
            instance: found.instance, property: found.property, value: found.value, revision: found.revision, start: found.start,
            isDirect: found.isDirect, path: found.path)
        #expect(found == made)
        #expect(Set([found, made]).count == 1)
    }
}
