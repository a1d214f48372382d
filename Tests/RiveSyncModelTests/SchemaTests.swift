import Foundation
import RiveSyncJSON
import RiveSyncModel
import Testing

@Suite struct SchemaTests {
    @Test func kitchenSchemaLoadsInOrder() throws {
        let schema = Fixtures.kitchen
        #expect(schema.viewModelNames == ["Theme", "Labels", "Child", "Other", "All"])
        #expect(schema.globalViewModelNames == ["Theme", "Labels"])
        #expect(try schema.instanceNames(of: "Theme") == ["Light", "Dark"])
        #expect(
            try schema.properties(of: "All").map(\.type) == [
                .number, .string, .boolean, .color, .enum, .trigger, .list, .viewModel, .assetImage, .assetFont,
                .assetBlob, .artboard, .symbolListIndex,
            ])
        #expect(try schema.properties(of: "All")[4].metaData == "Size")
        #expect(try schema.properties(of: "All")[7].metaData == "Child")
        #expect(try schema.properties(of: "All")[0].metaData == "")
        #expect(schema.artboardNames == ["Main", "Plain"])
        let info = try schema.defaultViewModelInfo(for: "Main")
        #expect(info.viewModelName == "All" && info.instanceName == "Default")
        let all = try schema.viewModel(named: "All")
        #expect(
            all.instances[0].values["lis"]
                == .list([
                    InstanceReference(viewModel: "Child", index: 0), InstanceReference(viewModel: "Other", index: 0),
                ]))
        #expect(all.instances[0].values["chi"] == .viewModel(InstanceReference(viewModel: "Child", index: 1)))
        #expect(all.instances[0].values["col"] == .color(0xFF10_2030))
    }

    @Test func unknownNamesGiveTypedErrors() {
        let schema = Fixtures.kitchen
        #expect(throws: FileError.invalidViewModel("Nope")) { try schema.viewModel(named: "Nope") }
        #expect(throws: FileError.invalidViewModel("Nope")) { try schema.instanceNames(of: "Nope") }
        #expect(throws: FileError.invalidArtboard("Nope")) { try schema.artboard(named: "Nope") }
        #expect(throws: FileError.self) { try schema.defaultViewModelInfo(for: "Plain") }
        #expect(throws: FileError.invalidArtboard("(default)")) { try FileSchema().artboard(named: nil) }
    }

    @Test func jsonRoundTripIsLossless() throws {
        let schema = Fixtures.kitchen
        let again = try FileSchema(json: schema.jsonValue)
        #expect(again == schema)
        let text = schema.jsonValue.prettyText()
        #expect(try FileSchema(jsonText: text) == schema)
    }

    @Test func demoExampleInProtocolFolderIsValid() throws {
        let path = Fixtures.packageRoot + "/protocol/examples/demo.schema.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let schema = try FileSchema(jsonText: text)
        #expect(schema.globalViewModelNames == ["Theme"])
        #expect(try schema.instanceNames(of: "Theme") == ["Light", "Dark"])
        let character = try schema.properties(of: "Character")
        #expect(character.map(\.name) == ["mood", "success", "error", "yes", "no", "enter", "exit", "face", "color"])
        #expect(character.dropFirst().prefix(6).allSatisfy { $0.type == .trigger })
        #expect(schema.artboards.first?.stateMachines == ["character"])
        #expect(StateMachineDefinition.build(from: schema.graph, artboard: "Character", stateMachine: "character") != nil)
    }

    @Test(arguments: [
        (#"{"viewModels": [{"name": "A", "properties": [{"name": "p", "type": "decimal"}]}]}"#, "unknown type"),
        (#"{"viewModels": [{"name": "A", "properties": [{"name": "p", "type": "enum", "enum": "E"}]}]}"#, "no enum named"),
        (#"{"viewModels": [{"name": "A"}, {"name": "A"}]}"#, "duplicate view model"),
        (
            #"{"viewModels": [{"name": "A", "properties": [{"name": "p", "type": "viewModel", "viewModel": "B"}]}]}"#,
            "no view model named 'B'"
        ),
        (
            #"{"viewModels": [{"name": "A", "properties": [{"name": "c", "type": "color"}], "instances": [{"name": "i", "values": {"c": "red"}}]}]}"#,
            "expected a color"
        ),
        (
            #"{"viewModels": [{"name": "A", "properties": [{"name": "n", "type": "number"}], "instances": [{"name": "i", "values": {"n": "1"}}]}]}"#,
            "expected a number"
        ),
        (
            #"{"viewModels": [{"name": "A", "properties": [], "instances": [{"name": "i", "values": {"zzz": 1}}]}]}"#,
            "has no property 'zzz'"
        ),
        (
            #"{"enums": [{"name": "E", "values": ["a"]}], "viewModels": [{"name": "A", "properties": [{"name": "e", "type": "enum", "enum": "E"}], "instances": [{"name": "i", "values": {"e": "b"}}]}]}"#,
            "is not a value of enum"
        ),
        (
            #"{"viewModels": [{"name": "A", "properties": [{"name": "l", "type": "list"}], "instances": [{"name": "i", "values": {"l": [{"viewModel": "A", "instance": "nope"}]}}]}]}"#,
            "has no instance named 'nope'"
        ),
        (
            #"{"viewModels": [], "artboards": [{"name": "X", "stateMachines": ["a"], "defaultStateMachine": "b"}]}"#,
            "not one of the artboard's state machines"
        ),
        (#"{"viewModels": [{"name": "A", "properties": [{"name": "", "type": "number"}]}]}"#, "must be non-empty"),
        (#"{"rivesyncSchema": 2, "viewModels": []}"#, "unsupported version"),
        (#"[1, 2"#, "not JSON"),
        (#"{}"#, "viewModels: missing"),
    ])
    func invalidSchemasAreRejectedWithAReason(json: String, reason: String) {
        do {
            _ = try FileSchema(jsonText: json)
            Issue.record("accepted: \(json)")
        } catch {
            let message: String
            switch error {
            case .invalidData(let text), .invalidFile(let text): message = text
            default: message = "\(error)"
            }
            #expect(message.contains(reason), "\(message)")
        }
    }

    @Test func colorText() {
        #expect(ColorText.format(0xFF00_0000) == "#FF000000")
        #expect(ColorText.parse("#102030") == 0xFF10_2030)
        #expect(ColorText.parse("#80102030") == 0x8010_2030)
        #expect(ColorText.parse("102030") == nil)
        #expect(ColorText.parse("#12345") == nil)
        #expect(ColorText.parse("#GG102030") == nil)
    }
}

@Suite struct DigestTests {
    @Test func sha256MatchesKnownVectors() {
        #expect(ContentDigest.sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ContentDigest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array(repeating: UInt8(ascii: "a"), count: 1_000)
        #expect(ContentDigest.sha256Hex(long) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
