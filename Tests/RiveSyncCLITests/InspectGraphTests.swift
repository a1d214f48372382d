import Foundation
import XCTest

/// `rivesync inspect FILE --graph [--json]`: a file's state machines as the evaluator runs
/// them, for a real `.riv` file and for the demo's JSON schema.
final class InspectGraphTests: XCTestCase {
    static let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("protocol/examples/demo.schema.json").path

    /// Rive's `listener_view_model.riv`: one layer, four view-model listeners (one through a
    /// converter), and the artboard's binds of three numbers to text runs.
    func testGraphOfARivFile() throws {
        let result = try RivesyncProcess.run(["inspect", try RivesyncProcess.fixture("listener_view_model"), "--graph"])
        XCTAssertEqual(
            result,
            .init(
                status: 0,
                stdout: """
                    artboard main
                      state machine State Machine 1
                        layer Layer 1
                          [0] EntryState
                            → Timeline 1
                          [1] Timeline 1 (AnimationState)
                          [2] ExitState
                          [3] AnyState
                        listener tri_change on change of tri
                          set num1 = num1 through converter 1
                        listener col_change on change of col
                          set num1 = 22
                        listener num_2_change on change of num2
                          set num3 = num2
                        listener num_1_change on change of num1
                          set num2 = num1
                        bind num3 toTarget TextValueRun #7.text converter 0
                        bind num2 toTarget TextValueRun #14.text converter 0
                        bind num1 toTarget TextValueRun #21.text converter 0

                    """, stderr: ""))
    }

    /// The demo's `character`, described in its JSON schema, printed with its conditions and
    /// listeners; `lobby` is named only.
    func testGraphOfTheDemoSchema() throws {
        let result = try RivesyncProcess.run(["inspect", Self.demo, "--graph"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.prefix(6),
            [
                "artboard Character", "  state machine character", "    layer mood", "      [0] EntryState", "      [1] AnyState",
                "        → excited when trigger success fired and mood greaterThanOrEqual 5",
            ])
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
        let printedMachine = try XCTUnwrap((printedArtboards[0]["stateMachines"] as? [Any])?.first as? NSDictionary)
        let describedMachine = try XCTUnwrap((schemaArtboards[0]["stateMachines"] as? [Any])?.first as? NSDictionary)
        XCTAssertEqual(printedMachine, describedMachine)
    }
}
