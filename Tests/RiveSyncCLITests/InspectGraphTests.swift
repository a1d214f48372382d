import Foundation
import XCTest

/// `rivesync inspect FILE --graph [--json]`: a file's state machines as the evaluator runs
/// them, for a real `.riv` file and for the demo's JSON schema.
final class InspectGraphTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let demo = root.appendingPathComponent("protocol/examples/demo.schema.json").path

    /// Rive's `listener_view_model.riv`: its two converters, one layer, four view-model
    /// listeners (one through a converter), and the artboard's binds of three numbers to text
    /// runs (which start as "-") through the to-string converter.
    func testGraphOfARivFile() throws {
        let result = try RivesyncProcess.run(["inspect", try RivesyncProcess.fixture("listener_view_model"), "--graph"])
        XCTAssertEqual(
            result,
            .init(
                status: 0,
                stdout: """
                    converters
                      [0] DataConverterToString 'Convert to String 1', flags 3
                      [1] DataConverterOperationValue 'add-10', operationValue 10
                    artboard main
                      state machine State Machine 1
                        layer Layer 1
                          [0] EntryState
                            → Timeline 1
                          [1] Timeline 1 (AnimationState)
                          [2] ExitState
                          [3] AnyState
                        listener tri_change on change of tri
                          set num1 = num1 through converter 'add-10'
                        listener col_change on change of col
                          set num1 = 22
                        listener num_2_change on change of num2
                          set num3 = num2
                        listener num_1_change on change of num1
                          set num2 = num1
                        bind [0] num3 toTarget TextValueRun #7.text (starts "-") converter 'Convert to String 1'
                        bind [1] num2 toTarget TextValueRun #14.text (starts "-") converter 'Convert to String 1'
                        bind [2] num1 toTarget TextValueRun #21.text (starts "-") converter 'Convert to String 1'

                    """, stderr: ""))
    }

    /// Rive's `vm_listener_fire_event.riv`: the artboard's event, reported by a listener; and
    /// an event keyed on a timeline.
    func testEventsOfARivFile() throws {
        let result = try RivesyncProcess.run(["inspect", try RivesyncProcess.fixture("vm_listener_fire_event"), "--graph"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.prefix(3), ["artboard Artboard", "  state machine State Machine 1", "    event ding"])
        XCTAssertEqual(lines.suffix(2), ["    listener VM Listener on change of go", "      report event ding"])
        // data_binding_test_triggers.riv's child artboard keys its event on a timeline.
        let keyed = try RivesyncProcess.run(["inspect", try RivesyncProcess.fixture("data_binding_test_triggers"), "--graph"])
        XCTAssertEqual(keyed.status, 0, keyed.stderr)
        XCTAssertTrue(
            keyed.stdout.contains(
                "    event child_event\n    timeline Timeline 1: 60 frames at 60 fps\n      event child_event at frame 30\n"),
            keyed.stdout)
    }

    /// SCHEMA.md's example of converters, events and binds: printed with all three, and as
    /// JSON exactly as described.
    func testConvertersEventsAndBindsOfAJSONSchema() throws {
        let document = try String(contentsOf: Self.root.appendingPathComponent("protocol/SCHEMA.md"), encoding: .utf8)
        let section = try XCTUnwrap(document.components(separatedBy: "### Data converters, events and data binds\n").dropFirst().first)
        let example = try XCTUnwrap(section.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        let path = try RivesyncProcess.temporaryFile("meter.schema.json", Array(example.utf8))
        let result = try RivesyncProcess.run(["inspect", path, "--graph"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.prefix(6),
            [
                "converters", "  [0] DataConverterRounder 'whole'", "  [1] DataConverterToString 'text', flags 2",
                "  [2] DataConverterGroup 'label text', items 'whole', 'text'", "  [3] DataConverterOperationValue 'plus one'",
                "  [4] DataConverterRangeMapper 'percent', flags 3, minInput 0, maxInput 10, minOutput 0, maxOutput 100",
            ])
        for expected in [
            "    event overload", "        → loud when level (through converter 'percent') greaterThan 80",
            "        action report event overload",
            "      set label = level through converter 'label text'", "    listener count on event overload",
            "    bind [0] level toTarget CustomPropertyNumber 'gauge'.propertyValue converter 'percent'",
        ] {
            XCTAssertTrue(lines.contains(expected), "no line '\(expected)' in:\n\(result.stdout)")
        }
        let json = try RivesyncProcess.run(["inspect", path, "--graph", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let printed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? NSDictionary)
        let described = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(example.utf8)) as? NSDictionary)
        XCTAssertEqual(printed["converters"] as? NSArray, described["converters"] as? NSArray)
        XCTAssertEqual(
            (printed["artboards"] as? [NSDictionary])?.first?["stateMachines"] as? NSArray,
            (described["artboards"] as? [NSDictionary])?.first?["stateMachines"] as? NSArray)
    }

    /// The demo's `Character/reactions`, described in its JSON schema, printed with its
    /// converter, conditions and listeners; `character` and `lobby` are named only.
    func testGraphOfTheDemoSchema() throws {
        let result = try RivesyncProcess.run(["inspect", Self.demo, "--graph"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.prefix(9),
            [
                "converters", "  [0] DataConverterToString 'mood text', flags 3", "artboard Character",
                "  state machine character: no graph", "  state machine reactions", "    layer mood",
                "      [0] EntryState", "      [1] AnyState", "        → excited when trigger success fired and mood greaterThanOrEqual 5",
            ])
        XCTAssertTrue(lines.contains("      set face = mood through converter 'mood text'"), result.stdout)
        XCTAssertTrue(lines.contains("    listener smile on change of success"), result.stdout)
        XCTAssertTrue(lines.contains(##"      set color = "#FF2E9E44""##), result.stdout)
        XCTAssertTrue(lines.contains("      fire error"), result.stdout)
        XCTAssertEqual(lines.suffix(2), ["artboard Lobby", "  state machine lobby: no graph"])
    }

    /// A description that names a state the layer has not fails the file with its JSON path.
    func testABadDescriptionNamesItsPath() throws {
        let json = #"""
            {"viewModels": [{"name": "V", "properties": [{"name": "go", "type": "trigger"}]}],
             "artboards": [{"name": "A", "viewModel": "V", "stateMachines": [{"name": "sm", "layers": [{"name": "L",
               "states": [{"type": "EntryState", "transitions": [{"to": "idel", "conditions": [{"trigger": "go"}]}]}, {"animation": "idle"}]}]}]}]}
            """#
        let path = try RivesyncProcess.temporaryFile("bad.schema.json", Array(json.utf8))
        XCTAssertEqual(
            try RivesyncProcess.run(["inspect", path, "--graph"]),
            .init(
                status: 1, stdout: "",
                stderr: "rivesync: \(path): artboards[0].stateMachines[0].layers[0].states[0].transitions[0].to: "
                    + "the layer has no state named 'idel' (or several)\n"))
    }

    /// `--graph --json` prints the demo's state machine exactly as the schema describes it:
    /// what is read is what is written.
    func testGraphJSONOfTheDemoIsItsDescription() throws {
        let result = try RivesyncProcess.run(["inspect", Self.demo, "--graph", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let printed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let schema = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.demo))) as? [String: Any])
        let printedArtboards = try XCTUnwrap(printed["artboards"] as? [[String: Any]])
        let schemaArtboards = try XCTUnwrap(schema["artboards"] as? [[String: Any]])
        XCTAssertEqual(printedArtboards.map { $0["name"] as? String }, ["Character", "Lobby"])
        let printedMachine = try XCTUnwrap((printedArtboards[0]["stateMachines"] as? [Any])?.last as? NSDictionary)
        let describedMachine = try XCTUnwrap((schemaArtboards[0]["stateMachines"] as? [Any])?.last as? NSDictionary)
        XCTAssertEqual(printedMachine["name"] as? String, "reactions")
        XCTAssertEqual(printedMachine, describedMachine)
        XCTAssertEqual(printed["converters"] as? NSArray, schema["converters"] as? NSArray)
    }
}
