import Foundation
import XCTest

/// `rivesync script`: a passing script, a failing one with its diff, and syntax errors.
final class ScriptCommandTests: DaemonCLITestCase {
    func testPassingScript() throws {
        let script = try RivesyncProcess.temporaryFile(
            "pass.rsync",
            Array(
                """
                # mood, triggers and the shared theme
                set character mood 3
                expect value character mood 3
                fire character success
                fire character success
                expect trigger character success 2
                set theme name "Night mode"
                expect value character @Theme/name "Night mode"
                expect value lobby @Theme/name Night mode
                wait batch lobby
                sleep 10ms

                """.utf8))
        XCTAssertEqual(
            try rivesync("script", script),
            .init(
                status: 0,
                stdout: """
                    ok 2: set character mood 3
                    ok 3: expect value character mood 3
                    ok 4: fire character success
                    ok 5: fire character success
                    ok 6: expect trigger character success 2
                    ok 7: set theme name "Night mode"
                    ok 8: expect value character @Theme/name "Night mode"
                    ok 9: expect value lobby @Theme/name Night mode
                    ok 10: wait batch lobby
                    ok 11: sleep 10ms
                    passed 10 steps

                    """, stderr: ""))
    }

    func testFailingScriptShowsTheDiff() throws {
        let script = try RivesyncProcess.temporaryFile(
            "fail.rsync", Array("set character mood 4\nexpect value character mood 6\nfire character yes\n".utf8))
        XCTAssertEqual(
            try rivesync("script", script),
            .init(
                status: 2, stdout: "ok 1: set character mood 4\n",
                stderr: """
                    rivesync: \(script):2: expect value character mood 6
                      expected: 6
                      actual:   4

                    """))
        let triggers = try RivesyncProcess.temporaryFile("fires.rsync", Array("fire character no\nexpect trigger character no 2\n".utf8))
        XCTAssertEqual(
            try rivesync("script", triggers),
            .init(
                status: 2, stdout: "ok 1: fire character no\n",
                stderr: """
                    rivesync: \(triggers):2: expect trigger character no 2
                      expected: fired 2 times
                      actual:   fired 1 times

                    """))
    }

    func testScriptSyntaxErrorsAreUsageErrors() throws {
        let cases: [(String, String)] = [
            ("set character mood\n", "expected 'set TARGET PATH VALUE'"),
            ("expect trigger character success many\n", "'many' is not a number of fires"),
            ("wait batch\n", "expected 'wait batch TARGET [N]'"),
            ("sleep soon\n", "'soon' is not a duration like 250ms or 2s"),
            (
                "\n# fine\njump character\n",
                "unknown step 'jump character' (set, fire, list, bind, advance, expect value, expect trigger, expect error, wait batch, wait value, sleep, connect)"
            ),
        ]
        for (text, problem) in cases {
            let script = try RivesyncProcess.temporaryFile("bad.rsync", Array(text.utf8))
            let line = text.hasPrefix("\n") ? 3 : 1
            XCTAssertEqual(
                try rivesync("script", script), .init(status: 64, stdout: "", stderr: "rivesync: \(script):\(line): \(problem)\n"))
        }
    }
}
