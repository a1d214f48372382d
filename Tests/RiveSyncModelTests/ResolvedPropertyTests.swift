import RiveSyncModel
import Testing

/// A resolution keeps its fields behind one reference (copied on write): it is still a value.
struct ResolvedPropertyTests {
    static let score = ResolvedProperty(
        instance: InstanceID(3), property: PropertySchema(name: "score", type: .number), value: .number(1), revision: 4,
        start: .slot(.main), isDirect: true, path: ParsedPath("score"))

    @Test func aCopyKeepsTheFieldsItHadWhenTheOtherChanges() {
        var copy = Self.score
        #expect(copy == Self.score)
        copy.value = .number(2)
        copy.revision = 5
        copy.isDirect = false
        #expect(Self.score.value == .number(1) && Self.score.revision == 4 && Self.score.isDirect)
        #expect(copy.value == .number(2) && copy.revision == 5 && !copy.isDirect)
        #expect(copy.instance == InstanceID(3) && copy.start == .slot(.main) && copy.path == ParsedPath("score"))
        #expect(copy != Self.score)
    }

    @Test func equalResolutionsHashAlike() {
        let again = ResolvedProperty(
            instance: InstanceID(3), property: PropertySchema(name: "score", type: .number), value: .number(1), revision: 4,
            start: .slot(.main), isDirect: true, path: ParsedPath("score"))
        #expect(again == Self.score)
        #expect(Set([again, Self.score]).count == 1)
    }
}
