import RiveSyncCore
import RiveSyncModel
import Testing

@testable import RiveSyncServer

/// What a path subscription receives of a batch, without a daemon: which effects match, and
/// how much of an attach above its paths it is shown.
@Suite struct PathFilterTests {
    static let dark = InstanceState(
        id: InstanceID(7), viewModel: "Theme", name: "Dark",
        values: ["name": .string("Dark"), "background": .color(0xFF10_1010), "accent": .color(0xFFFF_0000)])
    static let player = InstanceState(
        id: InstanceID(12), viewModel: "Player", name: "Guest",
        values: ["name": .string("Guest"), "x": .number(3), "badge": .viewModel(InstanceID(13))])
    static let badge = InstanceState(
        id: InstanceID(13), viewModel: "Badge", name: "", values: ["label": .string("gold"), "secret": .string("s3")])

    static let bind = Effect(paths: ["@Theme"], change: .bind(slot: .global("Theme"), instance: InstanceID(7), introduced: [dark]))
    static let insert = Effect(
        paths: ["players"],
        change: .listInsert(
            instance: InstanceID(1), property: "players", index: 1,
            item: InstanceID(12), introduced: [player, badge]))
    static let mood = Effect(paths: ["mood"], change: .set(instance: InstanceID(1), property: "mood", value: .number(4), introduced: []))

    static func introduced(_ effects: [Effect]) -> [InstanceState]? {
        effects.count == 1 ? effects[0].change.introducedStates : nil
    }

    @Test func effectsAtUnderOrAboveAPathMatchAndOthersDoNot() {
        let all = [Self.bind, Self.insert, Self.mood]
        #expect(PathFilter.effects(all, visibleTo: ["mood"]) == [Self.mood])
        #expect(PathFilter.effects(all, visibleTo: ["@Theme"]) == [Self.bind], "an effect at the path keeps everything")
        #expect(PathFilter.effects(all, visibleTo: ["players/1/x"]).map(\.paths) == [["players"]])
        #expect(PathFilter.effects(all, visibleTo: ["@Themes/name"]).isEmpty, "segments compare whole")
        let fire = Effect(paths: ["header/go"], change: .fire(instance: InstanceID(3), property: "go"))
        #expect(PathFilter.effects([fire], visibleTo: ["header"]) == [fire], "below a path: unchanged")
    }

    @Test func anEffectKeepsOnlyThePathsTheSubscriptionIsAbout() {
        let shared = Effect(
            paths: ["@Theme/name", "header/theme/name", "mood"],
            change: .set(instance: InstanceID(7), property: "name", value: .string("Dusk"), introduced: []))
        #expect(PathFilter.effects([shared], visibleTo: ["@Theme"]).map(\.paths) == [["@Theme/name"]])
        #expect(PathFilter.effects([shared], visibleTo: ["header", "mood"]).map(\.paths) == [["header/theme/name", "mood"]])
        #expect(PathFilter.effects([shared], visibleTo: ["@Theme/accent"]).isEmpty)
    }

    @Test func aBindAboveKeepsOnlyTheSubscribedValues() throws {
        let states = try #require(Self.introduced(PathFilter.effects([Self.bind], visibleTo: ["@Theme/name"])))
        #expect(states == [InstanceState(id: InstanceID(7), viewModel: "Theme", name: "Dark", values: ["name": .string("Dark")])])
        let two = try #require(Self.introduced(PathFilter.effects([Self.bind], visibleTo: ["@Theme/name", "@Theme/accent"])))
        #expect(two.first?.values.keys.sorted() == ["accent", "name"])
    }

    @Test func aListInsertAboveShowsTheItemOnlyAtTheSubscribedIndex() throws {
        let atItem = try #require(Self.introduced(PathFilter.effects([Self.insert], visibleTo: ["players/1/name"])))
        #expect(atItem.map(\.id) == [InstanceID(12)])
        #expect(atItem.first?.values == ["name": .string("Guest")])
        let deep = try #require(Self.introduced(PathFilter.effects([Self.insert], visibleTo: ["players/1/badge/label"])))
        #expect(deep.map(\.id) == [InstanceID(12), InstanceID(13)])
        #expect(deep.map(\.values) == [["badge": .viewModel(InstanceID(13))], ["label": .string("gold")]])
        let otherIndex = try #require(Self.introduced(PathFilter.effects([Self.insert], visibleTo: ["players/0/name"])))
        #expect(otherIndex.isEmpty, "the inserted item is not at the subscribed index")
        let wholeItem = try #require(Self.introduced(PathFilter.effects([Self.insert], visibleTo: ["players/1"])))
        #expect(wholeItem == [Self.player, Self.badge], "a path that ends at the item covers all of it")
        #expect(PathFilter.effects([Self.insert], visibleTo: ["players"]) == [Self.insert])
    }

    @Test func aNestedReplacementAboveFollowsThePathIntoTheNewSubtree() throws {
        let header = InstanceState(
            id: InstanceID(20), viewModel: "Header", name: "",
            values: ["title": .string("Hi"), "badge": .viewModel(InstanceID(13))])
        let set = Effect(
            paths: ["header", "@Theme/header"],
            change: .set(instance: InstanceID(1), property: "header", value: .viewModel(InstanceID(20)), introduced: [header, Self.badge]))
        let states = try #require(Self.introduced(PathFilter.effects([set], visibleTo: ["@Theme/header/badge/label"])))
        #expect(states.map(\.values) == [["badge": .viewModel(InstanceID(13))], ["label": .string("gold")]])
        let filtered = PathFilter.effects([set], visibleTo: ["header/title"])
        guard case .set(_, _, let value, _) = filtered.first?.change else {
            Issue.record("expected the set effect")
            return
        }
        #expect(value == .viewModel(InstanceID(20)))
    }
}
