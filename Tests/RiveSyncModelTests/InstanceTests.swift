import RiveSyncModel
import Testing

@Suite struct InstanceTests {
    @Test func blankInstanceHasRiveDefaultsForEveryType() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        let id = try runtime.createInstance(.blank(from: .name("All")))
        let values = try #require(runtime.store[id]).values
        #expect(values["num"] == .number(0))
        #expect(values["str"] == .string(""))
        #expect(values["boo"] == .boolean(false))
        #expect(values["col"] == .color(0xFF00_0000))
        #expect(values["enu"] == .enumValue("small"))
        #expect(values["tri"] == .trigger(0))
        #expect(values["lis"] == .list([]))
        #expect(values["ima"] == .asset(nil))
        #expect(values["fon"] == .asset(nil))
        #expect(values["blo"] == .asset(nil))
        #expect(values["art"] == .artboard(nil))
        #expect(values["sym"] == .symbolListIndex(0))
        #expect(values.count == 13)
        #expect(runtime.store[id]?.name == "")
        #expect(runtime.store.viewModel(of: id) == "All")
        #expect(runtime.store.viewModel(of: InstanceID(id.rawValue + 1_000)) == nil)
        #expect(runtime.store.value(of: id, property: "enu") == .enumValue("small"))
        #expect(runtime.store.value(of: id, property: "nothing") == nil)
        #expect(runtime.store.value(of: InstanceID(id.rawValue + 1_000), property: "enu") == nil)
    }

    /// Rive's `createViewModelInstance`: a blank instance's nested view-model property holds a
    /// new blank instance of the referenced view model, made the same way; `Child.next` refers
    /// to `Child`, which is being made, so it stays null (Rive would not end).
    @Test func blankInstanceHoldsANewBlankNestedInstance() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        let id = try runtime.createInstance(.blank(from: .name("All")))
        guard case .viewModel(let child?) = runtime.store[id]?.values["chi"] else {
            Issue.record("chi holds \(String(describing: runtime.store[id]?.values["chi"])), not an instance")
            return
        }
        let nested = try #require(runtime.store[child])
        #expect(nested.viewModel == "Child")
        #expect(nested.name == "")
        #expect(nested.values["label"] == .string(""))
        #expect(nested.values["next"] == .viewModel(nil))
        #expect(runtime.store.instances.count == 2)
        let chain = try runtime.createInstance(.blank(from: .name("Child")))
        #expect(runtime.store[chain]?.values["next"] == .viewModel(nil), "a view model nested in itself ends at once")
    }

    /// Journals and cluster entries written before journal format 5 replay with the rule they
    /// ran with: a blank instance's nested properties null.
    @Test func blankInstanceOfTheOldRuleLeavesNestedNull() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        let id = try runtime.createInstance(.blank(from: .name("All")), nested: .null)
        #expect(runtime.store[id]?.values["chi"] == .viewModel(nil))
        #expect(runtime.store.instances.count == 1)
    }

    @Test func blankNestedInstancesCountAgainstTheInstanceLimit() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen, limits: ModelLimits(maxInstances: 1))
        #expect(throws: FileError.limitExceeded(limit: FileRuntime.instanceLimitName, value: 1)) {
            try runtime.createInstance(.blank(from: .name("All")))
        }
        #expect(runtime.store.instances.isEmpty, "nothing made")
        _ = try runtime.createInstance(.blank(from: .name("All")), nested: .null)
    }

    @Test func defaultInstanceIsInstanceZeroWithNestedAndListCopies() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        let id = try runtime.createInstance(.viewModelDefault(from: .name("All")))
        let state = try #require(runtime.store[id])
        #expect(state.name == "Default")
        #expect(state.values["num"] == .number(7))
        #expect(state.values["enu"] == .enumValue("large"))
        #expect(state.values["ima"] == .asset(.fileAsset("photo", kind: .image)))
        #expect(state.values["art"] == .artboard("Main"))
        guard case .list(let items) = state.values["lis"], case .viewModel(let nested?) = state.values["chi"] else {
            Issue.record("list or nested missing")
            return
        }
        #expect(items.map { runtime.store[$0]?.viewModel } == ["Child", "Other"])
        #expect(runtime.store[items[0]]?.values["label"] == .string("one"))
        #expect(runtime.store[nested]?.name == "Second")
        // "Second" holds "First" in its list; the same authored instance is shared within one creation.
        #expect(runtime.store[nested]?.values["items"] == .list([items[0]]))
    }

    @Test func byNameAndByIndex() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        let dark = try runtime.createInstance(.name("Dark", from: .name("Theme")))
        #expect(runtime.store[dark]?.values["background"] == .color(0xFF00_0000))
        let second = try runtime.createInstance(.index(1, from: .name("Theme")))
        #expect(runtime.store[second]?.name == "Dark")
        let fromArtboard = try runtime.createInstance(.name("Named", from: .artboardDefault("Main")))
        #expect(runtime.store[fromArtboard]?.values["num"] == .number(42))
        #expect(dark != second)
    }

    @Test func creationErrorsAreTyped() {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        #expect(throws: FileError.invalidViewModel("Nope")) { try runtime.createInstance(.blank(from: .name("Nope"))) }
        #expect(throws: FileError.invalidViewModelInstance("'Theme' has no instance named 'Dusk'")) {
            try runtime.createInstance(.name("Dusk", from: .name("Theme")))
        }
        #expect(throws: FileError.invalidViewModelInstance("'Theme' has no instance at index 2")) {
            try runtime.createInstance(.index(2, from: .name("Theme")))
        }
        #expect(throws: FileError.invalidArtboard("Nope")) { try runtime.createInstance(.blank(from: .artboardDefault("Nope"))) }
        #expect(throws: FileError.invalidViewModel("artboard 'Plain' has no default view model")) {
            try runtime.createInstance(.viewModelDefault(from: .artboardDefault("Plain")))
        }
    }

    @Test func viewModelWithoutInstancesDefaultsToBlank() throws {
        let schema = FileSchema(viewModels: [ViewModelSchema(name: "vm", properties: [PropertySchema(name: "n", type: .number)])])
        var runtime = FileRuntime(schema: schema)
        let id = try runtime.createInstance(.viewModelDefault(from: .name("vm")))
        #expect(runtime.store[id]?.values == ["n": .number(0)])
    }

    @Test func instanceLimitIsEnforced() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen, limits: ModelLimits(maxInstances: 2))
        _ = try runtime.createInstance(.blank(from: .name("Other")))
        _ = try runtime.createInstance(.blank(from: .name("Other")))
        #expect(throws: FileError.limitExceeded(limit: "maxInstancesPerFile", value: 2)) {
            try runtime.createInstance(.blank(from: .name("Other")))
        }
    }
}
