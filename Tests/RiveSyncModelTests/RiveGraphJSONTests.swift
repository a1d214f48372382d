import RiveSyncJSON
import RiveSyncModel
import Testing

/// The graph's JSON form (SCHEMA.md, "The graph") and the definitions it names things by.
struct RiveGraphJSONTests {
    @Test func definitionsKnowRiveTypesPropertiesAndInheritance() throws {
        let shape = try #require(RiveDefinitions.type(named: "Shape"))
        let node = try #require(RiveDefinitions.type(named: "Node"))
        #expect(node.key == 2)
        #expect(RiveDefinitions.type(shape.key, isA: node.key))
        #expect(!RiveDefinitions.type(node.key, isA: shape.key))
        let x = try #require(RiveDefinitions.property(named: "x", on: shape.key))
        #expect(x.key == 13 && x.owner == node.key && x.kind == .double)
        #expect(RiveDefinitions.property(named: "name", on: shape.key)?.key == 4)
        #expect(RiveDefinitions.property(named: "name", on: 57)?.key == 138)  // StateMachineLayer: StateMachineComponent.name
        #expect(RiveDefinitions.property(9)?.name == "xArtboard")
        #expect(RiveDefinitions.property(named: "opValue", on: 482)?.kind == .uint)
        #expect(RiveDefinitions.property(named: "sourcePathIds", on: 447)?.kind == .idList)
    }

    @Test func namesKindsAndTaggedValuesRoundTrip() throws {
        let graph = RiveGraph(objects: [
            RiveObject(typeKey: 23),
            RiveObject(typeKey: 1, properties: [4: .bytes(Array("Main".utf8)), 7: .float(500), 196: .uint(1)]),
            RiveObject(typeKey: 3, properties: [5: .uint(0), 13: .float(-12.5), 712: .uint(9), 9999: .color(0x8000_FF00)]),
            RiveObject(typeKey: 447, properties: [588: .bytes([0, 1, 0x81, 0x01])]),
            RiveObject(typeKey: 4242, properties: [4: .float(1.5)]),
        ])
        let json = graph.jsonValue
        let items = try #require(json.arrayValue)
        #expect(items[1]["type"] == "Artboard" && items[1]["name"] == "Main" && items[1]["width"] == 500)
        #expect(items[1]["clip"] == true)
        #expect(items[2]["type"] == "Shape" && items[2]["x"] == -12.5 && items[2]["parentId"] == 0)
        #expect(items[2]["712"] == ["uint": 9])
        #expect(items[2]["9999"] == ["color": "#8000FF00"])
        #expect(items[3]["sourcePathIds"] == [0, 1, 129])
        #expect(items[4]["type"] == 4242 && items[4]["4"] == ["float": 1.5])
        let parsed = try JSONParser(maxDepth: 64).parse(json.jsonText)
        #expect(try RiveGraph(json: parsed) == graph)
    }

    @Test func errorsSayWhere() throws {
        func failure(_ text: String) throws -> String {
            do {
                _ = try RiveGraph(json: try JSONParser(maxDepth: 64).parse(text))
                return "no error"
            } catch {
                guard case .invalidData(let message) = error as? FileError else { return "\(error)" }
                return message
            }
        }
        let nope = try failure(#"[{"type": "Nope"}]"#)
        #expect(nope.contains("graph[0].type: no Rive type named 'Nope'"), "\(nope)")
        #expect(try failure(#"[{"type": "Artboard", "colour": 1}]"#).contains("graph[0].colour: Artboard has no property named 'colour'"))
        #expect(try failure(#"[{}, 1]"#).contains("graph[0].type: missing"))
        #expect(try failure(#"[{"type": "Artboard", "width": "wide"}]"#).contains("graph[0].width: expected a number"))
        #expect(try failure(#"[{"type": 1, "712": 3}]"#).contains("needs its type"))
        #expect(try failure(#"[{"type": 1, "712": {"uint": -1}}]"#).contains("graph[0].712.uint: expected an unsigned integer"))
    }

    /// SCHEMA.md's example loads.
    @Test func schemaExampleLoads() throws {
        let schema = try FileSchema(
            jsonText: #"{"viewModels": [], "graph": [{"type": "Backboard"}, {"type": "Artboard", "name": "Character"}, "#
                + #"{"type": "StateMachine", "name": "character"}, {"type": "StateMachineLayer", "name": "mood"}]}"#)
        #expect(schema.graph.objects.map(\.typeKey) == [23, 1, 53, 57])
        #expect(schema.graph.objects[3].string(138) == "mood")
    }
}
