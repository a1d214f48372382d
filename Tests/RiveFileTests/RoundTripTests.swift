import RiveFile
import RiveSyncModel
import XCTest

/// Random schemas → test writer → reader → the same schema.
final class RoundTripTests: XCTestCase {
    static let seed: UInt64 = 0x5249_5645_2007_0003

    func testRandomSchemasRoundTrip() throws {
        var random = RandomSchema(generator: SplitMix64(seed: Self.seed))
        var seen: Set<DataType> = []
        for round in 0..<400 {
            let schema = random.make()
            for viewModel in schema.viewModels { seen.formUnion(viewModel.properties.map(\.type)) }
            var writer = RivWriter(variation: round.isMultiple(of: 2) ? nil : SplitMix64(seed: UInt64(round)))
            let bytes = writer.write(schema)
            XCTAssertEqual(try RiveFileReader.read(bytes).metadata, schema, "round \(round)")
        }
        XCTAssertEqual(seen, Set(DataType.allCases), "every data type was generated")
    }

    func testMixedListsNestedReferencesAndGlobalsRoundTrip() throws {
        let schema = FileSchema(
            viewModels: [
                ViewModelSchema(
                    name: "Main",
                    properties: [
                        PropertySchema(name: "items", type: .list), PropertySchema(name: "child", type: .viewModel, viewModelName: "Child"),
                        PropertySchema(name: "mood", type: .enum, enumName: "Mood"), PropertySchema(name: "pic", type: .assetImage),
                        PropertySchema(name: "board", type: .artboard),
                    ],
                    instances: [
                        AuthoredInstance(
                            name: "Default",
                            values: [
                                "items": .list([
                                    InstanceReference(viewModel: "Child", index: 1), InstanceReference(viewModel: "Theme", index: 0),
                                    InstanceReference(viewModel: "Child", index: 0),
                                ]),
                                "child": .viewModel(InstanceReference(viewModel: "Child", index: 1)), "mood": .enumValue("Good"),
                                "pic": .asset("photo"), "board": .artboard("Second"),
                            ])
                    ]),
                ViewModelSchema(
                    name: "Child", properties: [PropertySchema(name: "label", type: .string)],
                    instances: [AuthoredInstance(name: "A", values: ["label": .string("a")]), AuthoredInstance(name: "B")]),
                ViewModelSchema(
                    name: "Theme", isGlobal: true, properties: [PropertySchema(name: "accent", type: .color)],
                    instances: [AuthoredInstance(name: "Instance", values: ["accent": .color(0xFF10_1566)])],
                    artboardScopedInstances: [AuthoredInstance(name: "Override", values: ["accent": .color(0x8000_0000)])]),
            ],
            enums: [EnumSchema(name: "Mood", values: ["Bad", "Good"])],
            artboards: [
                ArtboardSchema(name: "First", viewModelName: "Main", stateMachines: ["SM"], defaultStateMachine: "SM"),
                ArtboardSchema(name: "Second"),
            ],
            assets: [FileAssetSchema(name: "font", kind: .font), FileAssetSchema(name: "photo", kind: .image)])
        var writer = RivWriter()
        XCTAssertEqual(try RiveFileReader.read(writer.write(schema)).metadata, schema)
    }
}
