import Testing

@testable import RiveSyncModel

/// An advance's effects by target (`AdvanceEffects`): the advanced target's own apart from
/// the others', in order, and a transaction's rolled back to where it started.
struct AdvanceEffectsTests {
    static func effect(_ property: String) -> Effect {
        Effect(paths: [property], change: .set(instance: InstanceID(1), property: property, value: .number(1), introduced: []))
    }

    @Test func ownEffectsAreKeptApartFromOthersInOrder() {
        var effects = AdvanceEffects(target: "room")
        #expect(effects.isEmpty)
        effects.append(Self.effect("a"), for: "room")
        effects.append(Self.effect("b"), for: "room")
        #expect(!effects.isEmpty)
        #expect(!effects.reachOthers)
        effects.append(contentsOf: [Self.effect("c"), Self.effect("d")], for: "lobby")
        effects.append(contentsOf: [Self.effect("e")], for: "room")
        #expect(effects.reachOthers)
        #expect(effects.effects(for: "room").map(\.paths) == [["a"], ["b"], ["e"]])
        #expect(effects.effects(for: "lobby").map(\.paths) == [["c"], ["d"]])
        #expect(effects.effects(for: "hall").isEmpty)
    }

    @Test func rollingBackDropsWhatCameAfterTheMark() {
        var effects = AdvanceEffects(target: "room")
        effects.append(Self.effect("a"), for: "room")
        effects.append(Self.effect("b"), for: "lobby")
        let mark = effects.mark
        effects.append(Self.effect("c"), for: "room")
        effects.append(Self.effect("d"), for: "lobby")
        effects.append(Self.effect("e"), for: "hall")
        effects.rollBack(to: mark)
        #expect(effects.effects(for: "room").map(\.paths) == [["a"]])
        #expect(effects.effects(for: "lobby").map(\.paths) == [["b"]])
        #expect(effects.effects(for: "hall").isEmpty)
    }
}
