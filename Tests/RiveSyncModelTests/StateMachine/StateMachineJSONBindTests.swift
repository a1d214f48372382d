import Foundation
import RiveSyncJSON
import RiveSyncModel
import Testing

/// Converters, events and data binds described in the JSON schema format (SCHEMA.md, "Data
/// converters, events and data binds"): read into the graph a `.riv` file gives, run by the
/// same evaluator, written back as they were described.
@Suite struct StateMachineJSONBindTests {
    /// SCHEMA.md's example of the section, as the document shows it.
    static func example() throws -> String {
        let text = try String(contentsOfFile: Fixtures.packageRoot + "/protocol/SCHEMA.md", encoding: .utf8)
        let section = try #require(text.components(separatedBy: "### Data converters, events and data binds\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```json\n").dropFirst().first)
        return try #require(block.components(separatedBy: "```").first)
    }

    @Test func theExampleReadsIntoConvertersEventsAndBinds() throws {
        let schema = try FileSchema(jsonText: try Self.example())
        let converters = DataConverters(graph: schema.graph)
        #expect(converters.converters.map(\.name) == ["whole", "text", "label text", "plus one", "percent"])
        guard case .group(let group) = converters.converters[2].kind else { throw Unexpected.kind(converters.converters[2].kind) }
        #expect(group.items.map(\.name) == ["whole", "text"])
        let definition = try #require(StateMachineDefinition.build(from: schema.graph, artboard: "Meter", stateMachine: "meter"))
        #expect(definition.events == [1: "overload"], "the artboard is component 0, its event 1")
        #expect(definition.artboardBinds.map(\.converter) == [4])
        #expect(definition.artboardBinds.map(\.target) == [.component(2)])
        #expect(definition.listeners.map(\.sources) == [[.viewModel([0, 0])], [.event(1)]])
        #expect(definition.layers[0].states[2].actions.map(\.action) == [.event(1)])
    }

    @Test func theExampleRunsAsTheDocumentSays() throws {
        var runtime = FileRuntime(schema: try FileSchema(jsonText: try Self.example()))
        try runtime.createStateMachine(artboard: "Meter", stateMachine: "meter")
        _ = try runtime.advance("meter", elapsed: 0)
        #expect(runtime.layerStates("meter").map(\.animation) == ["calm"])
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "level", value: .number(8.6))), on: "meter")
        var batches = try runtime.advance("meter", elapsed: 0.016)
        let label = try runtime.value(at: "label", in: "meter")
        #expect(label == .string("9"), "\(label)")
        #expect(try runtime.dataBindTargetValues("meter") == [.number(86)])
        #expect(runtime.layerStates("meter").map(\.animation) == ["loud"])
        for _ in 0..<3 { batches += try runtime.advance("meter", elapsed: 0.016) }
        #expect(batches.flatMap(\.events).map(\.name) == ["overload"])
        #expect(try runtime.value(at: "alarms", in: "meter") == .number(1), "the event's listener counted")
    }

    /// What `inspect --graph --json` writes for the example is the example.
    @Test func theExampleWritesBackAsDescribed() throws {
        let text = try Self.example()
        let described = try JSONParser().parse(text)
        let written = try FileSchema(jsonText: text).stateMachineGraphJSON
        #expect(written["converters"] == described["converters"])
        #expect(written["artboards"]?.arrayValue?.first?["stateMachines"] == described["artboards"]?.arrayValue?.first?["stateMachines"])
    }

    /// What a journal keeps (the schema with its graph, converters included) loads back to the
    /// same schema.
    @Test func theExampleSurvivesTheJournalForm() throws {
        let schema = try FileSchema(jsonText: try Self.example())
        #expect(try FileSchema(json: schema.jsonValue) == schema)
        #expect(DataConverters(graph: try FileSchema(json: schema.jsonValue).graph).converters.count == 5)
    }

    /// An event keyed on a looping timeline is reported each time the state's animation passes
    /// its frame, and its listener runs; the timeline writes back as described.
    @Test func eventsKeyedOnATimelineAreReported() throws {
        let text = """
            {"viewModels": [{"name": "V", "properties": [{"name": "ticks", "type": "number"}]}],
             "converters": [{"type": "DataConverterOperationValue", "name": "plus one"}],
             "artboards": [{"name": "A", "viewModel": "V", "stateMachines": [{"name": "m",
               "layers": [{"name": "L", "states": [{"type": "EntryState", "transitions": [{"to": "clock"}]}, {"animation": "clock"}]}],
               "listeners": [{"event": "tick", "actions": [{"set": "ticks", "otherProperty": "ticks", "converter": "plus one"}]}],
               "events": [{"name": "tick"}],
               "animations": [{"name": "clock", "fps": 10, "duration": 10, "loop": "loop", "events": [{"event": "tick", "frame": 5}]}]}]}]}
            """
        let schema = try FileSchema(jsonText: text)
        let described = try JSONParser().parse(text)
        let machine = schema.stateMachineGraphJSON["artboards"]?.arrayValue?.first?["stateMachines"]?.arrayValue?.first
        #expect(machine?["animations"] == described["artboards"]?.arrayValue?.first?["stateMachines"]?.arrayValue?.first?["animations"])
        var runtime = FileRuntime(schema: schema)
        try runtime.createStateMachine(artboard: "A", stateMachine: "m")
        var reported: [String] = []
        for _ in 0..<25 { reported += try runtime.advance("m", elapsed: 0.1).flatMap(\.events).map(\.name) }
        #expect(reported == ["tick", "tick"], "frame 5 of a 1 s loop, passed twice in 2.5 s")
        #expect(try runtime.value(at: "ticks", in: "m") == .number(2))
    }

    /// Binds' directions and flags, formulas' tokens and interpolators read and write back.
    @Test func flagsTokensAndInterpolatorsRoundTrip() throws {
        let text = """
            {"viewModels": [{"name": "V", "properties": [{"name": "n", "type": "number"}, {"name": "s", "type": "string"},
              {"name": "b", "type": "boolean"}]}],
             "converters": [
               {"type": "DataConverterFormula", "name": "twice", "tokens": [{"type": "FormulaTokenInput"},
                 {"type": "FormulaTokenOperation", "operationType": 2}, {"type": "FormulaTokenValue", "operationValue": 2,
                 "binds": [{"property": "@V/n", "targetProperty": "operationValue"}]}]},
               {"type": "DataConverterInterpolator", "name": "ease", "duration": 0.5,
                 "interpolator": {"type": "CubicEaseInterpolator", "x1": 0.25, "y1": 0, "x2": 0.5, "y2": 1},
                 "binds": [{"property": "@V/n", "targetProperty": "duration", "direction": "toSource", "converter": "twice"}]},
               {"type": "DataConverterBooleanNegate"}],
             "artboards": [{"name": "A", "viewModel": "V", "stateMachines": [{"name": "m",
               "dataBinds": [
                 {"property": "n", "target": "CustomPropertyNumber 'x'", "targetProperty": "propertyValue", "targetValue": 3,
                  "direction": "twoWay", "sourceToTargetFirst": true, "converter": "twice"},
                 {"property": "b", "target": "CustomPropertyBoolean #5", "targetProperty": "propertyValue",
                  "direction": "toSource", "once": true, "converter": 2},
                 {"property": "n", "target": "CustomPropertyNumber 'x'", "targetProperty": "propertyValue", "direction": "toTarget",
                  "converter": "ease"}]}]}]}
            """
        let described = try JSONParser().parse(text)
        let schema = try FileSchema(jsonText: text)
        let definition = try #require(StateMachineDefinition.build(from: schema.graph, artboard: "A", stateMachine: "m"))
        #expect(definition.artboardBinds.map(\.flags) == [2 | 8, 0, 1 | 4])
        #expect(definition.artboardBinds.map(\.converter) == [0, 1, 2])
        let converters = DataConverters(graph: schema.graph).converters
        #expect(converters[0].binds == [DataConverterBind(propertyKey: 777, sourcePathIds: [0, 0], formulaToken: 2)])
        #expect(converters[1].binds == [DataConverterBind(propertyKey: 756, flags: 1, converterId: 0, sourcePathIds: [0, 0])])
        let written = schema.stateMachineGraphJSON
        #expect(written["converters"] == described["converters"])
        let binds = try #require(written["artboards"]?.arrayValue?.first?["stateMachines"]?.arrayValue?.first?["dataBinds"]?.arrayValue)
        // Binds are kept with their target: both of `x` first.
        #expect(binds.map { $0["converter"] } == ["twice", "ease", 2])
        #expect(binds[0]["targetValue"] == 3 && binds[0]["sourceToTargetFirst"] == true && binds[0]["direction"] == "twoWay")
        #expect(binds[2]["target"] == "CustomPropertyBoolean #2" && binds[2]["once"] == true && binds[2]["direction"] == "toSource")
    }

    /// Each problem of the new families is a typed error that names where it is.
    @Test func errorsNameTheirJSONPath() throws {
        func failure(converters: String = "[]", _ machine: String) -> String {
            jsonSchemaLoadFailure(
                properties: #"[{"name": "n", "type": "number"}, {"name": "s", "type": "string"}]"#, converters: converters,
                machine: machine)
        }
        let here = "artboards[0].stateMachines[0]"
        let plain = #"{"name": "m"}"#
        // Converters.
        #expect(
            failure(converters: #"[{"type": "DataConverterMagic"}]"#, plain).hasPrefix(
                "converters[0].type: unknown type 'DataConverterMagic'"))
        #expect(
            failure(converters: #"[{"type": "DataConverterRounder", "decimals": "two"}]"#, plain)
                == "converters[0].decimals: expected an unsigned integer")
        #expect(
            failure(converters: #"[{"type": "DataConverterRounder", "colour": 1}]"#, plain)
                == "converters[0].colour: DataConverterRounder has no property named 'colour'")
        #expect(
            failure(converters: #"[{"type": "DataConverterGroup", "items": ["hole"]}]"#, plain)
                == StateMachineJSONError.unknownConverter(at: "converters[0].items[0]", name: "hole").description)
        #expect(
            failure(converters: #"[{"type": "DataConverterRounder", "items": []}]"#, plain)
                == StateMachineJSONError.unknownMember(at: "converters[0].items").description)
        #expect(
            failure(converters: #"[{"type": "DataConverterFormula", "tokens": [{"type": "Shape"}]}]"#, plain)
                .hasPrefix("converters[0].tokens[0].type: unknown type 'Shape'"))
        #expect(
            failure(converters: #"[{"type": "DataConverterInterpolator", "interpolator": {"type": "Node"}}]"#, plain)
                .hasPrefix("converters[0].interpolator.type: unknown type 'Node'"))
        #expect(
            failure(converters: #"[{"type": "DataConverterInterpolator", "interpolatorId": 0}]"#, plain)
                == StateMachineJSONError.unknownMember(at: "converters[0].interpolatorId").description)
        #expect(
            failure(converters: #"[{"type": "DataConverterRounder", "binds": [{"property": "n", "targetProperty": "decimals"}]}]"#, plain)
                == "converters[0].binds[0].property: expected a path from a view model, @Name/…")
        #expect(
            failure(converters: #"[{"type": "DataConverterRounder", "binds": [{"property": "@V/n", "targetProperty": "x"}]}]"#, plain)
                == StateMachineJSONError.noSuchTargetProperty(
                    at: "converters[0].binds[0].targetProperty", property: "x", type: "DataConverterRounder"
                ).description)
        // Converter references.
        #expect(
            failure(#"{"name": "m", "listeners": [{"property": "n", "actions": [{"set": "s", "otherProperty": "n", "converter": "x"}]}]}"#)
                == StateMachineJSONError.unknownConverter(at: "\(here).listeners[0].actions[0].converter", name: "x").description)
        #expect(
            failure(
                converters: #"[{"type": "DataConverterToString"}]"#,
                #"{"name": "m", "listeners": [{"property": "n", "actions": [{"set": "s", "value": "a", "converter": 0}]}]}"#
            )
            .hasPrefix("\(here).listeners[0].actions[0].converter: expected otherProperty"))
        // Events.
        #expect(
            failure(#"{"name": "m", "listeners": [{"event": "ding", "actions": []}]}"#)
                == StateMachineJSONError.unknownEvent(at: "\(here).listeners[0].event", name: "ding").description)
        #expect(
            failure(#"{"name": "m", "events": [{"name": "ding"}, {"name": "ding"}]}"#)
                == StateMachineJSONError.duplicateName(at: "\(here).events[1].name", name: "ding").description)
        #expect(
            failure(#"{"name": "m", "layers": [{"name": "L", "states": [{"type": "EntryState", "actions": [{"fireEvent": "dong"}]}]}]}"#)
                == StateMachineJSONError.unknownEvent(at: "\(here).layers[0].states[0].actions[0].fireEvent", name: "dong").description)
        #expect(
            failure(#"{"name": "m", "events": [{"name": "e"}], "listeners": [{"property": "n", "actions": [{"fireEvent": "e", "x": 1}]}]}"#)
                == StateMachineJSONError.unknownMember(at: "\(here).listeners[0].actions[0].x").description)
        // Timelines.
        #expect(
            failure(#"{"name": "m", "animations": [{"name": "a", "events": [{"event": "ding", "frame": 1}]}]}"#)
                == StateMachineJSONError.unknownEvent(at: "\(here).animations[0].events[0].event", name: "ding").description)
        #expect(
            failure(#"{"name": "m", "animations": [{"name": "a", "loop": "bounce"}]}"#)
                .hasPrefix("\(here).animations[0].loop: unknown type 'bounce'"))
        #expect(
            failure(#"{"name": "m", "animations": [{"name": "a", "fps": 0}]}"#)
                == "\(here).animations[0].fps: expected a whole number above 0")
        #expect(
            failure(#"{"name": "m", "animations": [{"name": "a"}, {"name": "a"}]}"#)
                == StateMachineJSONError.duplicateName(at: "\(here).animations[1].name", name: "a").description)
        // Data binds.
        let bind = #"{"name": "m", "dataBinds": [{"property": "n", "target": TARGET, "targetProperty": PROPERTY DIRECTION}]}"#
        func bound(_ target: String, _ property: String = "propertyValue", direction: String = "") -> String {
            failure(
                bind.replacingOccurrences(of: "TARGET", with: target).replacingOccurrences(of: "PROPERTY", with: "\"\(property)\"")
                    .replacingOccurrences(of: "DIRECTION", with: direction))
        }
        #expect(bound(#""Gauge""#) == StateMachineJSONError.badTarget(at: "\(here).dataBinds[0].target", target: "Gauge").description)
        #expect(
            bound(#""Gizmo 'g'""#) == StateMachineJSONError.badTarget(at: "\(here).dataBinds[0].target", target: "Gizmo 'g'").description)
        #expect(bound(#""Artboard 'A'""#).hasPrefix("\(here).dataBinds[0].target: "))
        #expect(
            bound(#""CustomPropertyNumber 'g'""#, "colour")
                == StateMachineJSONError.noSuchTargetProperty(
                    at: "\(here).dataBinds[0].targetProperty", property: "colour", type: "CustomPropertyNumber"
                ).description)
        #expect(
            bound(#""CustomPropertyNumber 'g'""#, direction: #", "direction": "sideways""#)
                .hasPrefix("\(here).dataBinds[0].direction: unknown type 'sideways'"))
        #expect(
            bound(#""CustomPropertyNumber 'g'""#, direction: #", "targetValue": "high""#)
                == "\(here).dataBinds[0].targetValue: expected a number")
        #expect(
            failure(
                #"{"name": "m", "dataBinds": [{"property": "nope", "target": "CustomPropertyNumber 'g'", "targetProperty": "propertyValue"}]}"#
            )
                == "\(here).dataBinds[0].property: no property 'nope' from the artboard's view model")
    }

    enum Unexpected: Error {
        case kind(DataConverter.Kind)
    }
}
