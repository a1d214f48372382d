import Foundation
import RiveSyncJSON
import RiveSyncModel
import Testing

/// State machines described in the JSON schema format (SCHEMA.md, "State machines"): read into
/// the graph a `.riv` file gives, run by the same evaluator.
@Suite struct StateMachineJSONTests {
    /// SCHEMA.md's example, as the document shows it.
    static func schemaExample() throws -> String {
        let text = try String(contentsOfFile: Fixtures.packageRoot + "/protocol/SCHEMA.md", encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## State machines\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```json\n").dropFirst().first)
        return try #require(block.components(separatedBy: "```").first)
    }

    private func lamp() throws -> FileRuntime {
        var runtime = FileRuntime(schema: try FileSchema(jsonText: try Self.schemaExample()))
        try runtime.createStateMachine(artboard: "Lamp", stateMachine: "lamp")
        return runtime
    }

    private func state(_ runtime: FileRuntime) -> String? { runtime.layerStates("lamp").first?.animation }

    @Test func theExampleReadsIntoTheGraphARivFileGives() throws {
        let schema = try FileSchema(jsonText: try Self.schemaExample())
        #expect(schema.artboards.map(\.stateMachines) == [["lamp"]])
        let definition = try #require(StateMachineDefinition.build(from: schema.graph, artboard: "Lamp", stateMachine: "lamp"))
        #expect(definition.layers.map(\.name) == ["power"])
        #expect(definition.layers[0].states.map(\.kind) == [.entry, .any, .animation, .animation, .animation, .exit])
        #expect(definition.animations.map(\.name) == ["off", "on", "bright"])
        let on = definition.layers[0].states[3]
        #expect(on.transitions.map(\.stateTo) == [2, 4])
        #expect(on.transitions[1].conditions == [.viewModel(left: .bindable(2), right: .number(5), operation: .greaterThan)])
        #expect(definition.listeners.map(\.sources) == [[.viewModel([0, 0])]])
        #expect(definition.listeners[0].actions.count == 2)
        #expect(definition.dataBinds.map(\.sourcePath).contains([0, 1]), "the label is written through a to-source bind")
    }

    @Test func triggersMoveTheLayerOnceAndListenersWrite() throws {
        var runtime = try lamp()
        _ = try runtime.advance("lamp", elapsed: 0)
        #expect(state(runtime) == "off")
        try runtime.enqueue(QueuedCommand(id: 1, command: .fire(path: "toggle")), on: "lamp")
        let fired = try runtime.advance("lamp", elapsed: 0.016)
        #expect(fired.flatMap(\.layers).map(\.animation) == ["on"], "one transition per fire")
        _ = try runtime.advance("lamp", elapsed: 0.016)
        #expect(state(runtime) == "on", "the trigger was consumed")
        try runtime.enqueue(QueuedCommand(id: 2, command: .set(path: "level", value: .number(7))), on: "lamp")
        let batch = try #require(try runtime.advance("lamp", elapsed: 0.016).first)
        #expect(batch.layers.map(\.animation) == ["bright"])
        let made = batch.effects.filter { $0.origin == .stateMachine }.map(\.change)
        let label = made.contains { if case .set(_, "label", .string("7"), _) = $0 { true } else { false } }
        let glow = made.contains { if case .set(_, "glow", .color(0xFFFF_D24A), _) = $0 { true } else { false } }
        #expect(label && glow)
        #expect(try runtime.value(at: "label", in: "lamp") == .string("7"))
        try runtime.enqueue(QueuedCommand(id: 3, command: .set(path: "level", value: .number(2))), on: "lamp")
        _ = try runtime.advance("lamp", elapsed: 0.016)
        #expect(state(runtime) == "on")
        _ = try runtime.advance("lamp", elapsed: 0.016)
        #expect(runtime.isSettled("lamp"), "a state that has entered its empty animation needs no advance")
    }

    @Test func fireActionsAndInputConditionsRun() throws {
        let text = """
            {"viewModels": [{"name": "V", "properties": [{"name": "go", "type": "trigger"}, {"name": "done", "type": "trigger"},
              {"name": "count", "type": "number"}, {"name": "mode", "type": "enum", "enum": "Mode"}]}],
             "enums": [{"name": "Mode", "values": ["calm", "busy"]}],
             "artboards": [{"name": "A", "viewModel": "V", "stateMachines": [{"name": "sm",
               "inputs": [{"name": "armed", "type": "boolean", "value": true}],
               "layers": [{"name": "L", "states": [
                 {"type": "EntryState", "transitions": [{"to": 1, "conditions": [{"input": "armed"}]}]},
                 {"animation": "ready", "transitions": [{"to": "busy",
                   "conditions": [{"trigger": "go"}, {"property": "mode", "op": "equal", "value": "calm"}],
                   "actions": [{"fire": "done"}]}]},
                 {"animation": "busy"}]}],
               "listeners": [{"property": "done", "actions": [{"set": "count", "value": 3}]}]}]}]}
            """
        var runtime = FileRuntime(schema: try FileSchema(jsonText: text))
        try runtime.createStateMachine(artboard: "A", stateMachine: "sm")
        _ = try runtime.advance("sm", elapsed: 0)
        #expect(runtime.layerStates("sm").map(\.animation) == ["ready"])
        try runtime.enqueue(QueuedCommand(id: 1, command: .fire(path: "go")), on: "sm")
        _ = try runtime.advance("sm", elapsed: 0.1)
        #expect(runtime.layerStates("sm").map(\.animation) == ["busy"])
        _ = try runtime.advance("sm", elapsed: 0.1)
        #expect(try runtime.value(at: "count", in: "sm") == .number(3), "the transition fired done; its listener set count")
    }

    /// Each problem is a typed error that names where it is.
    @Test func errorsNameTheirJSONPath() throws {
        func failure(_ machine: String) -> String {
            jsonSchemaLoadFailure(
                properties: """
                    [{"name": "n", "type": "number"}, {"name": "t", "type": "trigger"}, {"name": "s", "type": "string"},
                     {"name": "l", "type": "list"}]
                    """, machine: machine)
        }
        let here = "artboards[0].stateMachines[0]"
        let entry = #"{"type": "EntryState"}"#
        #expect(
            failure(#"{"name": "m", "layers": [{"name": "L", "states": [{"type": "EntryState", "transitions": [{"to": "nope"}]}]}]}"#)
                == StateMachineJSONError.unknownState(at: "\(here).layers[0].states[0].transitions[0].to", name: "nope").description)
        #expect(
            failure(#"{"name": "m", "layers": [{"name": "L", "states": [{"type": "Entry"}]}]}"#)
                .hasPrefix("\(here).layers[0].states[0].type: unknown type 'Entry'"))
        #expect(
            failure(#"{"name": "m", "layers": [{"name": "L", "states": [{"animation": "a"}]}]}"#)
                == "\(here).layers[0].states: a layer needs one EntryState")
        let compare =
            #"{"name": "m", "layers": [{"name": "L", "states": [\#(entry), {"animation": "a", "transitions": [{"to": 0, "conditions": [COND]}]}]}]}"#
        #expect(
            failure(compare.replacingOccurrences(of: "COND", with: #"{"property": "s", "op": "lessThan", "value": "x"}"#))
                == StateMachineJSONError.badComparator(
                    at: "\(here).layers[0].states[1].transitions[0].conditions[0].op", comparator: "lessThan", type: "string"
                ).description)
        #expect(
            failure(compare.replacingOccurrences(of: "COND", with: #"{"property": "n", "op": "above", "value": 1}"#))
                .hasPrefix("\(here).layers[0].states[1].transitions[0].conditions[0].op: comparator 'above'"))
        #expect(
            failure(compare.replacingOccurrences(of: "COND", with: #"{"property": "missing", "value": 1}"#))
                == "\(here).layers[0].states[1].transitions[0].conditions[0].property: no property 'missing' from the artboard's view model"
        )
        #expect(
            failure(compare.replacingOccurrences(of: "COND", with: #"{"trigger": "n"}"#))
                .hasPrefix("\(here).layers[0].states[1].transitions[0].conditions[0].trigger: 'n' is a number property"))
        #expect(
            failure(compare.replacingOccurrences(of: "COND", with: #"{"property": "n", "value": "high"}"#))
                == "\(here).layers[0].states[1].transitions[0].conditions[0].value: expected a number")
        #expect(
            failure(#"{"name": "m", "listeners": [{"property": "n", "actions": [{"set": "l", "value": []}]}]}"#)
                .hasPrefix("\(here).listeners[0].actions[0].set: 'l' is a list property"))
        #expect(failure(#"{"layers": []}"#).hasPrefix("\(here).name: "))
        #expect(
            failure(#"{"name": "m", "layers": [{"name": "L", "colour": 1, "states": []}]}"#)
                == StateMachineJSONError.unknownMember(at: "\(here).layers[0].colour").description)
        let both = #"{"viewModels": [], "artboards": [{"name": "A", "stateMachines": [{"name": "m"}]}], "graph": [{"type": "Backboard"}]}"#
        #expect(throws: FileError.invalidData(StateMachineJSONError.graphGivenTwice.description)) { try FileSchema(jsonText: both) }
    }

    /// The graph written back in the format (`inspect --graph --json`) is the description read.
    @Test func theGraphWritesBackAsItsDescription() throws {
        let text = try Self.schemaExample()
        func machine(_ json: JSONValue) -> JSONValue? { json["artboards"]?.arrayValue?.first?["stateMachines"]?.arrayValue?.first }
        let described = try #require(machine(try JSONParser().parse(text)))
        #expect(machine(try FileSchema(jsonText: text).stateMachineGraphJSON) == described)
    }

    /// What a journal keeps (the schema with its graph) loads back to the same schema.
    @Test func theDescribedGraphSurvivesTheJournalForm() throws {
        let schema = try FileSchema(jsonText: try Self.schemaExample())
        #expect(try FileSchema(json: schema.jsonValue) == schema)
    }
}
