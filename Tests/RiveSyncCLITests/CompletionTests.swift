import Foundation
import RiveSyncTestSupport
import XCTest

/// `rivesync completion SHELL`: scripts generated from the command table that complete what
/// the table has, checked by running bash's completion function and by zsh's and fish's
/// parsers (zsh and fish from .ci/setup-tests.sh).
final class CompletionTests: XCTestCase {
    /// The script for `shell`, written to a file.
    func script(_ shell: String) throws -> String {
        let generated = try RivesyncProcess.run(["completion", shell])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        return try completionScriptFile(generated.stdout, program: "rivesync", shell: shell)
    }

    func testBashCompletesCommandsOptionsAndFiles() throws {
        let script = try script("bash")
        defer { try? FileManager.default.removeItem(atPath: script) }
        XCTAssertEqual(try bashCompletes(["rivesync", "l"], script: script), ["list", "load", "ls"])
        XCTAssertEqual(try bashCompletes(["rivesync", "--url", "ws://x", "wa"], script: script), ["watch"])
        XCTAssertEqual(try bashCompletes(["rivesync", "inspect", "--g"], script: script), ["--graph"])
        XCTAssertEqual(try bashCompletes(["rivesync", "watch", "t", "--cou"], script: script), ["--count"])
        XCTAssertEqual(try bashCompletes(["rivesync", "--time"], script: script), ["--timeout"])
        XCTAssertEqual(try bashCompletes(["rivesync", "completion", ""], script: script), ["--help", "bash", "fish", "zsh"])
        XCTAssertEqual(try bashCompletes(["rivesync", "list", "s"], script: script), ["swap"])
        XCTAssertEqual(try bashCompletes(["rivesync", "ls", "--timeout", ""], script: script), [], "a value is not completed")
        let directory = NSTemporaryDirectory() + "rivesync-completion-files-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["scene.riv", "schema.json"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data()))
        }
        XCTAssertEqual(try bashCompletes(["rivesync", "inspect", "sc"], script: script, in: directory), ["scene.riv", "schema.json"])
        XCTAssertEqual(try bashCompletes(["rivesync", "load", "name", "scene"], script: script, in: directory), ["scene.riv"])
        XCTAssertEqual(try bashCompletes(["rivesync", "ls", "--token-file", "sch"], script: script, in: directory), ["schema.json"])
        XCTAssertEqual(try bashCompletes(["rivesync", "get", "sc"], script: script, in: directory), [], "TARGET is not a file")
    }

    /// zsh and fish parse their scripts, and every command and option of the table is in each.
    func testZshAndFishScriptsParseAndNameEveryCommand() throws {
        for (shell, check) in [("zsh", ["-n"]), ("fish", ["--no-execute"])] {
            let path = try script(shell)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let parsed = try ChildProcess.run("/usr/bin/\(shell)", check + [path], seconds: 30)
            XCTAssertEqual(parsed.status, 0, "\(shell): \(parsed.stderr)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for name in ["inspect", "ls", "watch", "who", "script", "completion"] {
                XCTAssertTrue(text.contains(name), "\(shell): \(name)")
            }
            for option in ["token-file", "cacert", "count", "current", "all", "graph"] {
                XCTAssertTrue(text.contains(option), "\(shell): \(option)")
            }
        }
    }

    func testAnotherShellIsAnInvalidValue() throws {
        XCTAssertEqual(
            try RivesyncProcess.run(["completion", "tcsh"]),
            .init(status: 7, stdout: "", stderr: "rivesync: completion: SHELL is bash, zsh, fish, not 'tcsh'\n"))
    }
}
