import RiveFile
import RiveSyncModel
import XCTest

/// Fixtures with asset and artboard values, and the large inventory file.
final class AssetFixtureTests: XCTestCase {
    func testDataBindBlob() throws {
        let schema = try readFixture("data_bind_blob_test", viewModels: ["XMLAttributeVM", "XMLNodeVM", "Main"])
        XCTAssertEqual(try schema.viewModel(named: "Main").propertySignature, ["children:list", "xml:assetBlob"])
        XCTAssertEqual(try value(schema, "Main", 0, "xml"), .asset("trigger_listener_trigger.rml"))
        XCTAssertEqual(
            schema.assets,
            [
                FileAssetSchema(name: "Inter", kind: .font), FileAssetSchema(name: "XmlDom", kind: .script),
                FileAssetSchema(name: "trigger_listener_trigger.rml", kind: .blob),
                FileAssetSchema(name: "XMLParser", kind: .script), FileAssetSchema(name: "vm_list.rml", kind: .blob),
            ])
        XCTAssertEqual(schema.artboards.map(\.viewModelName), ["Main", "XMLNodeVM", "XMLAttributeVM"])
    }

    func testDataBindFont() throws {
        let schema = try readFixture("data_bind_font_test", viewModels: ["ViewModel1"])
        XCTAssertEqual(try schema.viewModel(named: "ViewModel1").propertySignature, ["fontSource:assetFont", "fontProperty:assetFont"])
        XCTAssertEqual(try value(schema, "ViewModel1", 0, "fontProperty"), .asset("ImperialScript-Regular"))
        XCTAssertEqual(try value(schema, "ViewModel1", 0, "fontSource"), .asset("ImperialScript-Regular"))
    }

    func testDataBindingImages() throws {
        let schema = try readFixture("data_binding_images_test", viewModels: ["main", "sub_1", "sub_2"])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: "main").viewModelName, "main")
        XCTAssertEqual(
            try schema.viewModel(named: "main").propertySignature,
            ["main_im:assetImage", "Number property:number", "sub_2:viewModel<sub_2>", "sub_1:viewModel<sub_1>"])
        XCTAssertEqual(try value(schema, "main", 0, "main_im"), .asset("funkos_9"))
        XCTAssertEqual(try value(schema, "main", 0, "sub_1"), .viewModel(InstanceReference(viewModel: "sub_1", index: 0)))
        XCTAssertEqual(try value(schema, "sub_1", 0, "sub_1_im"), .asset("funkos_4"))
        XCTAssertEqual(try value(schema, "sub_2", 0, "sub_2_im"), .asset("funkos_2"))
        XCTAssertEqual(schema.assets.count, 9)
        XCTAssert(schema.assets.allSatisfy { $0.kind == .image })
    }

    func testDataBindingArtboards() throws {
        let schema = try readFixture("data_binding_artboards_test", viewModels: ["child", "main", "recursive"])
        XCTAssertEqual(try schema.viewModel(named: "main").propertySignature, ["ab:artboard", "ch:viewModel<child>"])
        XCTAssertEqual(try schema.viewModel(named: "child").propertySignature, ["str:string", "tr:trigger"])
        XCTAssertEqual(
            schema.artboardNames,
            [
                "main", "recursive-child", "recursive-grand-parent", "recursive-parent", "ch1", "recursive-grand-child-2", "ch2",
                "recursive-grand-child-1",
            ])
        XCTAssertEqual(try value(schema, "main", 0, "ab"), .artboard("ch2"))
        XCTAssertEqual(try value(schema, "recursive", 0, "ab"), .artboard("recursive-grand-child-2"))
        XCTAssertEqual(try value(schema, "main", 0, "ch"), .viewModel(InstanceReference(viewModel: "child", index: 0)))
    }

    func testInventoryDemo() throws {
        let schema = try readFixture(
            "inventory_demo_test_v2",
            viewModels: [
                "VMCoin", "ItemInfo", "ItemLoader", "VMCategoryIcon", "VMLoadoutItemB", "VMLoadoutItemA", "VMTopData", "VMCredit",
                "VMDataContent", "VMBackpackMedicla", "IconAmmo", "VMEquipmentBTile", "VMEquipmentATile", "VMEquipment",
                "VMTestInventory", "VMMenuGrid", "VMItemGrid", "VMItem", "IconAll", "IconShield", "IconWeapon", "IconTool",
                "IconQuick", "IconMis", "IconMedicalSupplies", "IconKey", "VMLoadoutItem", "VMCategoryMenuIcon", "VMIconGrid",
                "VMBackpackMedicalItem", "VMItemImagen", "VMInventory",
            ])
        XCTAssertEqual(schema.viewModels.map(\.instances.count).reduce(0, +), 3_164)
        XCTAssertEqual(
            schema.viewModels.map(\.instances.count),
            [506, 1, 505, 505, 1, 1, 1, 1, 2, 1, 1, 51, 51, 1, 1, 1, 1, 507, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9, 1, 501, 505, 1])
        XCTAssertEqual(
            schema.enums.map(\.name), ["Category", "ItemSize", "Mode"])
        XCTAssertEqual(
            schema.enums[0].values,
            ["All", "Ammo", "Weapon", "Medical Supplies", "Shield", "Tool", "Miscellaneous", "Quick Use", "Key"])
        XCTAssertEqual(
            try schema.viewModel(named: "VMCategoryMenuIcon").propertySignature,
            ["id:enum<Category>", "booleanProperty:boolean", "listIndex:symbolListIndex"])
        XCTAssertEqual(
            Array(try schema.viewModel(named: "VMCategoryMenuIcon").instanceNames.prefix(3)), ["IconAll", "IconAmmo", "IconKey"])
        XCTAssertEqual(
            try schema.viewModel(named: "VMInventory").propertySignature,
            [
                "propertyOfItemInfo:viewModel<ItemInfo>", "numHeight:number", "numWidth:number",
                "propertyOfItemGrid:viewModel<VMItemGrid>", "mode:enum<Mode>", "propertyOfTopData:viewModel<VMTopData>",
                "propertyOfBackpackHealth:viewModel<VMBackpackMedicla>", "propertyOfEquipment:viewModel<VMEquipment>",
                "propertyOfMenuGrid:viewModel<VMMenuGrid>", "mainColor:color",
            ])
        XCTAssertEqual(schema.artboards.count, 34)
        XCTAssertEqual(
            Array(artboardSummary(schema).prefix(5)),
            [
                "Inventory vm=VMInventory sm=State Machine 1 default=State Machine 1",
                "Coin vm=VMCoin sm=State Machine 1 default=State Machine 1",
                "Info vm=VMItem sm=State Machine 1 default=State Machine 1",
                "CategoryIcon vm=VMCategoryIcon sm=State Machine 1 default=State Machine 1",
                "ItemDrag vm=VMItem sm=Motion default=Motion",
            ])
        XCTAssertEqual(try schema.defaultViewModelInfo(for: nil).viewModelName, "VMInventory")
        XCTAssertEqual(try schema.defaultViewModelInfo(for: nil).instanceName, "Instance")
    }
}
