import RiveFile
import RiveSyncModel
import XCTest

/// The small scripting fixtures and the event/list/index fixtures.
final class SmallFixtureTests: XCTestCase {
    func testScriptedEnum() throws {
        let schema = try readFixture("scripted_enum", viewModels: ["EnumVM"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "EnumArtboard").viewModelName, "EnumVM")
        XCTAssertEqual(try schema.viewModel(named: "EnumVM").propertySignature, ["EnumProp:enum<Colors>"])
        XCTAssertEqual(schema.enums, [EnumSchema(name: "Colors", values: ["white", "blue", "orange", "red"])])
        XCTAssertEqual(try value(schema, "EnumVM", 0, "EnumProp"), .enumValue("white"))
    }

    func testScriptedString() throws {
        let schema = try readFixture("scripted_string", viewModels: ["stringVm"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "StringArtboard").viewModelName, "stringVm")
        XCTAssertEqual(
            try schema.viewModel(named: "stringVm").instances, [AuthoredInstance(name: "", values: ["stringProp": .string("yo")])])
    }

    func testScriptedBoolean() throws {
        let schema = try readFixture("scripted_boolean", viewModels: ["BoolVM"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "BooleanArtboard").viewModelName, "BoolVM")
        XCTAssertEqual(try schema.viewModel(named: "BoolVM").propertySignature, ["BoolProp:boolean"])
        XCTAssertEqual(try value(schema, "BoolVM", 0, "BoolProp"), .boolean(false))
    }

    func testScriptedColor() throws {
        let schema = try readFixture("scripted_color", viewModels: ["colorsVm"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "ColorArtboard").viewModelName, "colorsVm")
        XCTAssertEqual(try value(schema, "colorsVm", 0, "colorProp"), .color(0xFF10_1566))
    }

    func testVMListenerFireEvent() throws {
        let schema = try readFixture("vm_listener_fire_event", viewModels: ["Document"])
        XCTAssertEqual(try schema.viewModel(named: "Document").propertySignature, ["go:trigger"])
        XCTAssertEqual(try schema.viewModel(named: "Document").instances, [AuthoredInstance(name: "Instance", values: ["go": .trigger(0)])])
        XCTAssertEqual(artboardSummary(schema), ["Artboard vm=Document sm=State Machine 1 default=State Machine 1"])
    }

    func testTransitionIndexCondition() throws {
        let schema = try readFixture("transition_index_condition", viewModels: ["child", "main"])
        XCTAssertEqual(try schema.viewModel(named: "child").propertySignature, ["List Index:symbolListIndex"])
        XCTAssertEqual(try value(schema, "child", 0, "List Index"), .symbolListIndex(0))
        XCTAssertEqual(try value(schema, "main", 0, "comparer"), .number(1))
        XCTAssertEqual(try value(schema, "main", 0, "num-to-list"), .number(3))
    }

    func testViewModelListTrigger() throws {
        let schema = try readFixture("viewmodel_list_trigger", viewModels: ["child", "main"])
        XCTAssertEqual(try schema.viewModel(named: "main").propertySignature, ["lis:list"])
        XCTAssertEqual(try schema.viewModel(named: "child").propertySignature, ["tri:trigger"])
        XCTAssertEqual(try value(schema, "main", 0, "lis"), .list([InstanceReference(viewModel: "child", index: 0)]))
        XCTAssertEqual(try value(schema, "child", 0, "tri"), .trigger(0))
    }

    func testListItems() throws {
        let schema = try readFixture("list_items", viewModels: ["child", "vm"])
        XCTAssertEqual(try schema.viewModel(named: "vm").propertySignature, ["lis1:list", "lis2:list"])
        XCTAssertEqual(try schema.viewModel(named: "child").instanceNames, ["Instance", "Instance 1"])
        XCTAssertEqual(try value(schema, "child", 0, "label"), .string("lis item 2"))
        XCTAssertEqual(try value(schema, "child", 1, "label"), .string("lis uite m 1"))
        XCTAssertEqual(try value(schema, "vm", 0, "lis1"), .list([]))
    }

    func testBidirectionalPrecedence() throws {
        let schema = try readFixture("bidirectional_precedence", viewModels: ["vm"])
        XCTAssertEqual(schema.artboardNames, ["source_first", "target_first"])
        XCTAssertEqual(schema.artboards.map(\.viewModelName), ["vm", "vm"])
        XCTAssertEqual(try schema.viewModel(named: "vm").propertySignature, ["y:number", "x:number"])
        XCTAssertEqual(
            try schema.viewModel(named: "vm").instances, [AuthoredInstance(name: "", values: ["y": .number(250), "x": .number(250)])])
    }

    func testComponentStatefulViewModelInstance() throws {
        let schema = try readFixture("component_stateful_vm_instance", viewModels: ["ComponentVM", "ParentVM", "ViewModel2"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "ParentArtboard").viewModelName, "ParentVM")
        XCTAssertEqual(try value(schema, "ParentVM", 0, "h"), .number(100))
        let component = try schema.viewModel(named: "ComponentVM")
        XCTAssertEqual(component.instances, [AuthoredInstance(name: "Instance", values: ["height": .number(79), "width": .number(82)])])
        XCTAssertEqual(
            component.artboardScopedInstances,
            [
                AuthoredInstance(name: "Instance copy", values: ["height": .number(10), "width": .number(10)]),
                AuthoredInstance(name: "Instance copy", values: ["height": .number(102), "width": .number(20)]),
            ])
        XCTAssertEqual(
            try value(schema, "ViewModel2", 0, "propertyOfViewModel1"), .viewModel(InstanceReference(viewModel: "ParentVM", index: 0)))
    }

    func testRebindWithNestedViewModel() throws {
        let schema = try readFixture("rebind_with_nested_viewmodel", viewModels: ["Third", "Second", "Main"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: nil).viewModelName, "Main")
        XCTAssertEqual(try value(schema, "Main", 0, "sec"), .viewModel(InstanceReference(viewModel: "Second", index: 0)))
        XCTAssertEqual(try value(schema, "Second", 0, "thi"), .viewModel(InstanceReference(viewModel: "Third", index: 0)))
        XCTAssertEqual(try value(schema, "Third", 0, "label"), .string("Initial value"))
    }
}
