import RiveSyncModel
import Testing

/// One test per binding rule of Rive's `bindViewModelInstances`.
@Suite struct BindingTests {
    @Test func createStateMachineFillsMainAndEveryGlobalWithAuthoredDefaults() throws {
        let runtime = try Fixtures.kitchenRuntime()
        let target = try runtime.target("sm")
        #expect(target.bindings.map(\.slot) == [.main, .global("Theme"), .global("Labels")])
        #expect(try runtime.value(at: "num", in: "sm") == .number(7))
        #expect(try runtime.value(at: "@Theme/name", in: "sm") == .string("Light"))
    }

    @Test func createStateMachineWithUnknownNameThrowsInvalidStateMachine() {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        #expect(throws: ArtboardError.invalidStateMachine("nope")) {
            try runtime.createStateMachine(artboard: "Main", stateMachine: "nope")
        }
        #expect(throws: FileError.invalidArtboard("Nope")) { try runtime.createStateMachine(artboard: "Nope") }
    }

    @Test func createStateMachineBindsSuppliedInstances() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        let dark = try runtime.createInstance(.name("Dark", from: .name("Theme")))
        let main = try runtime.createInstance(.name("Named", from: .name("All")))
        try runtime.createStateMachine(named: "two", artboard: "Main", stateMachine: "other", main: main, globals: [("Theme", dark)])
        #expect(try runtime.target("two").instance(in: .global("Theme")) == dark)
        #expect(try runtime.value(at: "num", in: "two") == .number(42))
        #expect(throws: StateMachineError.targetExists("two")) { try runtime.createStateMachine(named: "two", artboard: "Main") }
    }

    @Test func unknownOrNonGlobalNameThrowsInvalidGlobalViewModelName() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let other = try runtime.createInstance(.blank(from: .name("Other")))
        #expect(throws: StateMachineError.invalidGlobalViewModelName("Other")) {
            try runtime.bind("sm", main: nil, globals: [("Other", other)], commandID: 1)
        }
        #expect(throws: StateMachineError.invalidGlobalViewModelName("Nope")) {
            try runtime.bind("sm", main: nil, globals: [("Nope", other)], commandID: 1)
        }
    }

    @Test func duplicateNameThrowsDuplicateGlobalViewModelInstanceBeforeNameCheck() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let dark = try runtime.createInstance(.name("Dark", from: .name("Theme")))
        #expect(throws: StateMachineError.duplicateGlobalViewModelInstance("Nope")) {
            try runtime.bind("sm", main: nil, globals: [("Nope", dark), ("Nope", dark)], commandID: 1)
        }
    }

    @Test func allNamesAreValidatedBeforeAnythingApplies() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let before = try runtime.target("sm").bindings
        let dark = try runtime.createInstance(.name("Dark", from: .name("Theme")))
        let main = try runtime.createInstance(.name("Named", from: .name("All")))
        #expect(throws: StateMachineError.invalidGlobalViewModelName("Nope")) {
            try runtime.bind("sm", main: main, globals: [("Theme", dark), ("Nope", dark)], commandID: 1)
        }
        #expect(try runtime.target("sm").queue.isEmpty)
        #expect(try runtime.advance("sm").isEmpty)
        #expect(try runtime.target("sm").bindings == before, "a rejected call leaves bindings intact")
    }

    @Test func omittedGlobalsKeepTheirBinding() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let labels = try runtime.target("sm").instance(in: .global("Labels"))
        let dark = try runtime.createInstance(.name("Dark", from: .name("Theme")))
        try runtime.bind("sm", main: nil, globals: [("Theme", dark)], commandID: 1)
        _ = try runtime.advance("sm")
        #expect(try runtime.target("sm").instance(in: .global("Theme")) == dark)
        #expect(try runtime.target("sm").instance(in: .global("Labels")) == labels)
    }

    @Test func nilMainKeepsTheMain() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let main = try runtime.mainInstance()
        let dark = try runtime.createInstance(.name("Dark", from: .name("Theme")))
        try runtime.bind("sm", main: nil, globals: [("Theme", dark)], commandID: 1)
        _ = try runtime.advance("sm")
        #expect(try runtime.mainInstance() == main)
    }

    @Test func bindingAppliesOnTheNextAdvanceOnly() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let dark = try runtime.createInstance(.name("Dark", from: .name("Theme")))
        try runtime.bind("sm", main: nil, globals: [("Theme", dark)], commandID: 7)
        #expect(try runtime.value(at: "@Theme/name", in: "sm") == .string("Light"))
        let batches = try runtime.advance("sm")
        #expect(try runtime.value(at: "@Theme/name", in: "sm") == .string("Dark"))
        #expect(batches.first?.applied == [7])
        guard case .bind(.global("Theme"), dark, let introduced) = batches.first?.effects.first?.change else {
            Issue.record("expected a bind effect")
            return
        }
        #expect(introduced.map(\.id) == [dark])
        #expect(batches.first?.effects.first?.paths == ["@Theme"])
    }

    @Test func mainAndGlobalsMustFitTheirSlots() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let other = try runtime.createInstance(.blank(from: .name("Other")))
        #expect(throws: StateMachineError.incompatibleInstance(slot: "main", expected: "All", actual: "Other")) {
            try runtime.bind("sm", main: other, globals: [], commandID: 1)
        }
        #expect(throws: StateMachineError.incompatibleInstance(slot: "Theme", expected: "Theme", actual: "Other")) {
            try runtime.bind("sm", main: nil, globals: [("Theme", other)], commandID: 1)
        }
        #expect(throws: StateMachineError.unknownInstance(InstanceID(999))) {
            try runtime.bind("sm", main: InstanceID(999), globals: [], commandID: 1)
        }
    }

    @Test func artboardWithoutViewModelHasNoMainSlot() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen)
        try runtime.createStateMachine(artboard: "Plain")
        #expect(try runtime.target("idle").instance(in: .main) == nil)
        #expect(throws: PropertyError.nullInstance(path: "")) { try runtime.value(at: "x", in: "idle") }
    }
}
