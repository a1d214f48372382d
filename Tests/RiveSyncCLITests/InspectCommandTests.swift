import XCTest

/// `rivesync inspect`, run as a user runs it: output and exit status compared to literals.
final class InspectCommandTests: XCTestCase {
    static let scriptedStringJSON = """
        {
          "rivesyncSchema": 1,
          "enums": [],
          "viewModels": [
            {
              "name": "stringVm",
              "global": false,
              "properties": [
                {
                  "name": "stringProp",
                  "type": "string"
                }
              ],
              "instances": [
                {
                  "name": "",
                  "values": {
                    "stringProp": "yo"
                  }
                }
              ]
            }
          ],
          "artboards": [
            {
              "name": "StringArtboard",
              "viewModel": "stringVm",
              "stateMachines": [
                "State Machine 1"
              ],
              "defaultStateMachine": "State Machine 1"
            }
          ],
          "assets": []
        }

        """

    func testInspectRivPrintsSchemaJSON() throws {
        let result = try RivesyncProcess.run(["inspect", RivesyncProcess.fixture("scripted_string")])
        XCTAssertEqual(result, .init(status: 0, stdout: Self.scriptedStringJSON, stderr: ""))
    }

    func testInspectRivAsText() throws {
        let result = try RivesyncProcess.run(["inspect", "--text", RivesyncProcess.fixture("library_data_enum_test")])
        XCTAssertEqual(
            result,
            .init(
                status: 0,
                stdout: """
                    view models
                      vm1
                        properties
                          mycolor: enum (Color)
                        instances
                          [0] "DefaultVMI"
                            mycolor = red3
                    enums
                      Color: blue1, green2, red3
                    artboards
                      my_artboard (view model vm1)
                        state machines: State Machine 1 (default)
                    assets: none

                    """, stderr: ""))
    }

    func testInspectJSONSchemaFileRoundTrips() throws {
        let path = try RivesyncProcess.temporaryFile("schema.json", Array(Self.scriptedStringJSON.utf8))
        XCTAssertEqual(try RivesyncProcess.run(["inspect", path]), .init(status: 0, stdout: Self.scriptedStringJSON, stderr: ""))
    }

    func testInspectJSONSchemaAsText() throws {
        let json = """
            {"enums": [{"name": "Mood", "values": ["Bad", "Good"]}],
             "viewModels": [{"name": "Theme", "global": true,
                             "properties": [{"name": "accent", "type": "color"}, {"name": "mood", "type": "enum", "enum": "Mood"}],
                             "instances": [{"name": "Dark", "values": {"accent": "#102030", "mood": "Good"}}]}],
             "artboards": [{"name": "Main", "viewModel": "Theme", "stateMachines": ["A", "B"], "defaultStateMachine": "B"}],
             "assets": [{"name": "Inter", "kind": "font"}]}
            """
        let path = try RivesyncProcess.temporaryFile("theme.json", Array(json.utf8))
        XCTAssertEqual(
            try RivesyncProcess.run(["inspect", path, "--text"]),
            .init(
                status: 0,
                stdout: """
                    view models
                      Theme (global)
                        properties
                          accent: color
                          mood: enum (Mood)
                        instances
                          [0] "Dark"
                            accent = #FF102030
                            mood = Good
                    enums
                      Mood: Bad, Good
                    artboards
                      Main (view model Theme)
                        state machines: A, B (default)
                    assets
                      Inter (font)

                    """, stderr: ""))
    }

    func testBadFilesExitOneWithOneLine() throws {
        let truncated = try RivesyncProcess.temporaryFile("cut.riv", Array("RIVE".utf8) + [7])
        XCTAssertEqual(
            try RivesyncProcess.run(["inspect", truncated]),
            .init(status: 1, stdout: "", stderr: "rivesync: \(truncated): truncated .riv file: minor version at byte 5 runs past the end\n")
        )
        let version = try RivesyncProcess.temporaryFile("v6.riv", Array("RIVE".utf8) + [6, 1, 0, 0])
        XCTAssertEqual(
            try RivesyncProcess.run(["inspect", version]),
            .init(status: 1, stdout: "", stderr: "rivesync: \(version): unsupported .riv version 6.1 (only major version 7 is supported)\n")
        )
        let json = try RivesyncProcess.temporaryFile("bad.json", Array(#"{"viewModels": 3}"#.utf8))
        XCTAssertEqual(
            try RivesyncProcess.run(["inspect", json]),
            .init(status: 1, stdout: "", stderr: "rivesync: \(json): viewModels: expected an array\n"))
        XCTAssertEqual(
            try RivesyncProcess.run(["inspect", "/nonexistent/file.riv"]),
            .init(status: 1, stdout: "", stderr: "rivesync: /nonexistent/file.riv: no such file (ENOENT)\n"))
    }
}
