import RiveFile
import RiveSyncModel
import XCTest

/// One test per fixture: what Rive's own tests assert about it (`RIV-FIXTURES.md`, first table),
/// plus spot checks of its parsed contents (second section).
final class FixtureTests: XCTestCase {
    func testViewModelRuntimeFile() throws {
        let schema = try readFixture("viewmodel_runtime_file", viewModels: ["child", "vm"])
        let vm = try schema.viewModel(named: "vm")
        XCTAssertEqual(
            vm.propertySignature,
            [
                "chi:viewModel<child>", "lis:list", "art:artboard", "ima:assetImage", "enu:enum<Horizontal Align>",
                "tri:trigger", "col:color", "boo:boolean", "str:string", "num:number",
            ])
        XCTAssertEqual(vm.instances, [], "the file has no instances")
        XCTAssertEqual(try schema.viewModel(named: "child").propertySignature, ["chi-num:number"])
        XCTAssertEqual(vm.property(named: "num")?.metaData, "")
        XCTAssertEqual(vm.property(named: "enu")?.metaData, "Horizontal Align")
        XCTAssertEqual(schema.enums, [EnumSchema(name: "Horizontal Align", values: ["Left align", "Right align", "Center align"])])
        XCTAssertEqual(artboardSummary(schema), ["Artboard vm=- sm=State Machine 1 default=State Machine 1"])
    }

    func testLibraryDataEnum() throws {
        let schema = try readFixture("library_data_enum_test", viewModels: ["vm1"])
        XCTAssertEqual(schema.enums, [EnumSchema(name: "Color", values: ["blue1", "green2", "red3"])])
        XCTAssertEqual(try schema.viewModel(named: "vm1").propertySignature, ["mycolor:enum<Color>"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: nil).viewModelName, "vm1")
        XCTAssertEqual(try schema.defaultViewModelInfo(for: nil).instanceName, "DefaultVMI")
        XCTAssertEqual(try value(schema, "vm1", 0, "mycolor"), .enumValue("red3"))
        XCTAssertEqual(artboardSummary(schema), ["my_artboard vm=vm1 sm=State Machine 1 default=State Machine 1"])
    }

    func testLibraryViewModel() throws {
        let schema = try readFixture("library_view_model_test", viewModels: ["vm2", "vm1", "host_vm"])
        XCTAssertEqual(schema.artboardNames, ["host_artboard", "2", "1"])
        XCTAssertEqual(schema.artboards.map(\.viewModelName), ["host_vm", "vm2", "vm1"])
        XCTAssertEqual(try schema.viewModel(named: "vm2").propertySignature, ["vm1invm2:viewModel<vm1>"], "a forward reference")
        XCTAssertEqual(
            try schema.viewModel(named: "vm1").propertySignature,
            ["eventstring:string", "place:enum<country>", "color:color", "size:number"])
        XCTAssertEqual(schema.enums, [EnumSchema(name: "country", values: ["italy", "uk", "usa"])])
        XCTAssertEqual(try value(schema, "vm1", 0, "eventstring"), .string("hello"))
        XCTAssertEqual(try value(schema, "vm1", 0, "place"), .enumValue("uk"))
        XCTAssertEqual(try value(schema, "vm1", 0, "size"), .number(123))
        XCTAssertEqual(try value(schema, "vm1", 0, "color"), .color(0xFF0A_0F42))
        XCTAssertEqual(try value(schema, "vm2", 0, "vm1invm2"), .viewModel(InstanceReference(viewModel: "vm1", index: 0)))
        XCTAssertEqual(try value(schema, "host_vm", 0, "vm2inhost"), .viewModel(InstanceReference(viewModel: "vm2", index: 0)))
    }

    func testGlobalViewModels() throws {
        let schema = try readFixture("global_viewmodels_test", viewModels: ["GlobalLabels", "GlobalColors", "Main"])
        XCTAssertEqual(schema.globalViewModelNames, ["GlobalLabels", "GlobalColors"])
        let colors = try schema.viewModel(named: "GlobalColors")
        XCTAssertEqual(colors.propertySignature, ["c2:color", "c1:color"])
        XCTAssertEqual(colors.instanceNames, ["Instance"])
        XCTAssertEqual(colors.instances[0].values, ["c2": .color(0xFF00_9900), "c1": .color(0xFF99_0000)])
        XCTAssertEqual(
            colors.artboardScopedInstances, [AuthoredInstance(name: "GlobalColors Override", values: ["c2": .color(0xFF00_0099)])])
        let labels = try schema.viewModel(named: "GlobalLabels")
        XCTAssertEqual(labels.instances[0].values, ["s2": .string("from-global-s2"), "s1": .string("from-global-s1")])
        XCTAssertEqual(labels.artboardScopedInstances.map(\.name), ["GlobalLabels Override"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: nil).viewModelName, "Main")
        XCTAssertEqual(try value(schema, "Main", 0, "label"), .string("main label"))
        XCTAssertEqual(schema.artboards.map(\.viewModelName), ["Main", nil])
    }

    func testDataBindingTest2() throws {
        let schema = try readFixture("data_binding_test_2", viewModels: ["vm1", "vm3"])
        XCTAssertEqual(try schema.viewModel(named: "vm1").propertySignature, ["map-range-num:number", "num:number"])
        XCTAssertEqual(
            try schema.viewModel(named: "vm3").propertySignature, ["bool-prop:boolean", "wrong-pad-type:number", "pad-string:string"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "artboard-2").viewModelName, "vm1")
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "artboard-3").viewModelName, "vm3")
        XCTAssertEqual(try value(schema, "vm3", 0, "pad-string"), .string("text"))
        XCTAssertEqual(try value(schema, "vm3", 0, "bool-prop"), .boolean(false))
        XCTAssertEqual(try value(schema, "vm1", 0, "map-range-num"), .number(4))
        XCTAssertEqual(try value(schema, "vm1", 0, "num"), .number(-1))
        XCTAssertEqual(schema.artboardNames, ["artboard-1", "artboard-3", "artboard-2"])
    }

    func testSharedViewModelInstance() throws {
        let schema = try readFixture("shared_viewmodel_instance", viewModels: ["vm-child", "vm-main", "vm-main-2"])
        XCTAssertEqual(try schema.viewModel(named: "vm-child").instanceNames, ["vmi1", "vmi2"])
        XCTAssertEqual(try value(schema, "vm-child", 0, "label"), .string("label-vmi-1"))
        XCTAssertEqual(try value(schema, "vm-child", 1, "label"), .string("label-vmi-2"))
        let first = AuthoredValue.viewModel(InstanceReference(viewModel: "vm-child", index: 0))
        let second = AuthoredValue.viewModel(InstanceReference(viewModel: "vm-child", index: 1))
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "main").viewModelName, "vm-main")
        XCTAssertEqual(try value(schema, "vm-main", 0, "child1"), first)
        XCTAssertEqual(try value(schema, "vm-main", 0, "child2"), first)
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "main_2").viewModelName, "vm-main-2")
        XCTAssertEqual(try value(schema, "vm-main-2", 0, "vm_2_child1"), first)
        XCTAssertEqual(try value(schema, "vm-main-2", 0, "vm_2_child2"), second)
    }

    func testListToPath() throws {
        let schema = try readFixture(
            "list_to_path",
            viewModels: [
                "vertex-incomplete", "vertex-detached", "vertex-in-out", "vertex-rotation-distance", "main", "non-vertex",
                "vertex-x-y",
            ])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "main").viewModelName, "main")
        XCTAssertEqual(try value(schema, "main", 0, "lis"), .list([]))
        XCTAssertEqual(schema.viewModels.map(\.instances.count), [0, 0, 0, 0, 1, 0, 0], "only main has an instance")
        XCTAssertEqual(try schema.viewModel(named: "vertex-x-y").propertySignature, ["y:number", "x:number"])
        XCTAssertEqual(
            try schema.viewModel(named: "vertex-in-out").propertySignature,
            ["outY:number", "outX:number", "inY:number", "inX:number", "y:number", "x:number"])
        XCTAssertEqual(
            try schema.viewModel(named: "vertex-rotation-distance").propertySignature,
            ["distance:number", "rotation:number", "y:number", "x:number"])
        XCTAssertEqual(
            try schema.viewModel(named: "vertex-detached").propertySignature,
            ["outDistance:number", "inDistance:number", "outRotation:number", "inRotation:number", "y:number", "x:number"])
        XCTAssertEqual(
            try schema.viewModel(named: "vertex-incomplete").propertySignature,
            ["y:number", "x:number", "inDistance:number", "inRotation:number", "outX:number", "inX:number"])
        XCTAssertEqual(try schema.viewModel(named: "non-vertex").properties, [])
    }

    func testStatefulListProps() throws {
        let schema = try readFixture("stateful_list_props", viewModels: ["ButtonVM", "ViewModel1"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "Main").viewModelName, "ViewModel1")
        XCTAssertEqual(try schema.viewModel(named: "ViewModel1").propertySignature, ["buttons:list"])
        let button = try schema.viewModel(named: "ButtonVM")
        XCTAssertEqual(
            button.propertySignature,
            ["clicked:boolean", "click:trigger", "mood:enum<Mood>", "tint:color", "clipped:boolean", "label:string", "count:number"])
        XCTAssertEqual(button.instanceNames, ["Instance"] + Array(repeating: "Button Instance", count: 4))
        XCTAssertEqual(
            button.instances[0].values,
            [
                "clicked": .boolean(false), "click": .trigger(0), "mood": .enumValue("Neutral"), "tint": .color(0xFF00_0000),
                "clipped": .boolean(true), "label": .string("Initial value"), "count": .number(10),
            ])
        XCTAssertEqual(button.instances.map { $0.values["count"] }, [10, 20, 10, 10, 10].map { AuthoredValue.number($0) })
        XCTAssertEqual(schema.enums, [EnumSchema(name: "Mood", values: ["Neutral", "Bad", "Good"])])
    }
}
