import RiveSyncModel
import Testing

@Suite struct PathTests {
    /// Each settable type: a valid write is visible after advance, and a value of another
    /// kind is a typed error.
    @Test(arguments: [
        ("num", PropertyValue.number(3.5), PropertyValue.string("3.5")),
        ("str", .string("hi"), .number(1)),
        ("boo", .boolean(true), .string("true")),
        ("col", .color(0x8011_2233), .number(0)),
        ("enu", .enumValue("medium"), .string("medium")),
        ("ima", .asset(AssetReference(id: "sha256:ab", byteCount: 10, mediaType: "image/png")), .string("x")),
        ("fon", .asset(AssetReference(id: "sha256:cd", byteCount: 20, mediaType: "font/ttf")), .boolean(true)),
        ("blo", .asset(nil), .color(1)),
        ("art", .artboard("Plain"), .string("Plain")),
        ("sym", .symbolListIndex(4), .number(4)),
    ])
    func setGetAndWrongType(path: String, value: PropertyValue, wrong: PropertyValue) throws {
        var runtime = try Fixtures.kitchenRuntime()
        let batch = try runtime.apply(.set(path: path, value: value))
        #expect(batch.rejected.isEmpty)
        #expect(try runtime.value(at: path, in: "sm") == value)
        let rejected = try runtime.apply(.set(path: path, value: wrong), id: 2)
        #expect(rejected.rejected.map(\.id) == [2])
        guard case .typeMismatch(let at, _, let actual) = rejected.rejected.first?.error else {
            Issue.record("expected typeMismatch, got \(rejected.rejected)")
            return
        }
        #expect(at == path && actual == wrong.kindName)
        #expect(try runtime.value(at: path, in: "sm") == value)
    }

    @Test func settingTriggersListsAndNullNestedIsRejected() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let batch = try runtime.apply(.set(path: "tri", value: .trigger(3)))
        #expect(batch.rejected.first?.error == .typeMismatch(path: "tri", expected: "trigger", actual: "trigger"))
        let list = try runtime.apply(.set(path: "lis", value: .list([])), id: 2)
        #expect(list.rejected.first?.error == .typeMismatch(path: "lis", expected: "list", actual: "list"))
        let null = try runtime.apply(.set(path: "chi", value: .viewModel(nil)), id: 3)
        guard case .invalidValue = null.rejected.first?.error else {
            Issue.record("expected invalidValue")
            return
        }
    }

    @Test func badValuesAreTypedErrors() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let enumBatch = try runtime.apply(.set(path: "enu", value: .enumValue("huge")))
        #expect(enumBatch.rejected.first?.error == .invalidEnumValue(path: "enu", value: "huge", allowed: ["small", "medium", "large"]))
        let nan = try runtime.apply(.set(path: "num", value: .number(.nan)), id: 2)
        #expect(nan.rejected.first?.error == .invalidValue(path: "num", reason: "numbers must be finite"))
        let artboard = try runtime.apply(.set(path: "art", value: .artboard("Nope")), id: 3)
        #expect(artboard.rejected.first?.error == .invalidValue(path: "art", reason: "no artboard named 'Nope'"))
    }

    @Test func pathErrorsAreTyped() throws {
        let runtime = try Fixtures.kitchenRuntime()
        #expect(throws: PropertyError.noSuchProperty(path: "nope")) { try runtime.value(at: "nope", in: "sm") }
        #expect(throws: PropertyError.noSuchProperty(path: "NUM")) { try runtime.value(at: "NUM", in: "sm") }
        #expect(throws: PropertyError.invalidPath("")) { try runtime.value(at: "", in: "sm") }
        #expect(throws: PropertyError.invalidPath("chi//label")) { try runtime.value(at: "chi//label", in: "sm") }
        #expect(throws: PropertyError.typeMismatch(path: "num", expected: "viewModel", actual: "number")) {
            try runtime.value(at: "num/x", in: "sm")
        }
        #expect(throws: PropertyError.noSuchProperty(path: "chi/nope")) { try runtime.value(at: "chi/nope", in: "sm") }
        #expect(throws: PropertyError.nullInstance(path: "chi/next")) { try runtime.value(at: "chi/next/label", in: "sm") }
        #expect(throws: PropertyError.indexOutOfRange(path: "lis", index: 5, count: 2)) { try runtime.value(at: "lis/5/label", in: "sm") }
        #expect(throws: PropertyError.typeMismatch(path: "lis/x", expected: "list index", actual: "x")) {
            try runtime.value(at: "lis/x/label", in: "sm")
        }
        #expect(throws: PropertyError.noSuchSlot(path: "@Nope")) { try runtime.value(at: "@Nope/title", in: "sm") }
        #expect(throws: PropertyError.invalidPath("lis/0")) { try runtime.value(at: "lis/0", in: "sm") }
        #expect(throws: StateMachineError.unknownTarget("zz")) { try runtime.value(at: "num", in: "zz") }
    }

    @Test func nestedListItemGlobalAndIdPaths() throws {
        var runtime = try Fixtures.kitchenRuntime()
        #expect(try runtime.value(at: "chi/label", in: "sm") == .string("two"))
        #expect(try runtime.value(at: "chi/items/0/label", in: "sm") == .string("one"))
        #expect(try runtime.value(at: "lis/1/flag", in: "sm") == .boolean(true))
        #expect(try runtime.value(at: "@Theme/name", in: "sm") == .string("Light"))
        #expect(try runtime.value(at: "@Labels/title", in: "sm") == .string("hello"))
        try runtime.apply(.set(path: "chi/items/0/count", value: .number(9)))
        #expect(try runtime.value(at: "lis/0/count", in: "sm") == .number(9), "the list item and the nested item are one instance")
        guard case .viewModel(let nested?) = try runtime.value(at: "chi", in: "sm") else {
            Issue.record("no nested")
            return
        }
        #expect(try runtime.value(at: "#\(nested.rawValue)/label", in: "sm") == .string("two"))
        #expect(try runtime.property(at: "chi/count", in: "sm").type == .number)
    }

    @Test func sameValueWriteMakesNoEffect() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let batch = try runtime.apply(.set(path: "num", value: .number(7)))
        #expect(batch.effects.isEmpty)
        #expect(batch.applied == [1])
    }
}
