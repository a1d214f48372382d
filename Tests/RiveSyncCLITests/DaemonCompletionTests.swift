import Foundation
import RiveSyncTestSupport
import XCTest

/// `rivesyncd --completion SHELL`: scripts generated from the daemon's flag table, checked by
/// running bash's completion function, fish's own completer, and zsh's parser (zsh and fish
/// from .ci/setup-tests.sh).
final class DaemonCompletionTests: XCTestCase {
    /// The script for `shell`, written to a file.
    func script(_ shell: String) throws -> String {
        let generated = try ChildProcess.run(DaemonProcess.binary(), ["--completion", shell], seconds: 30)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        return try completionScriptFile(generated.stdout, program: "rivesyncd", shell: shell)
    }

    /// What fish offers for `line` (its candidates, without their descriptions).
    func fishCompletes(_ line: String, script: String, in directory: String) throws -> [String] {
        let result = try ChildProcess.run(
            "/usr/bin/fish", ["--no-config", "-c", "cd '\(directory)'; source '\(script)'; complete -C '\(line)'"], seconds: 30)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted()
    }

    /// A directory with a configuration file and a state directory in it.
    func directoryWithFiles() throws -> String {
        let directory = NSTemporaryDirectory() + "rivesyncd-completion-files-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/site.json", contents: Data()))
        return directory
    }

    func testBashCompletesFlagsFilesDirectoriesAndWords() throws {
        let script = try script("bash")
        defer { try? FileManager.default.removeItem(atPath: script) }
        let directory = try directoryWithFiles()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        XCTAssertEqual(try bashCompletes(["rivesyncd", "--de"], script: script), ["--demo"])
        XCTAssertEqual(try bashCompletes(["rivesyncd", "--c"], script: script), ["--check-config", "--completion", "--config"])
        XCTAssertEqual(try bashCompletes(["rivesyncd", "--demo", "--log-f"], script: script), ["--log-format"])
        XCTAssertEqual(try bashCompletes(["rivesyncd", "--log-level", "w"], script: script), ["warning"])
        XCTAssertEqual(try bashCompletes(["rivesyncd", "--completion", ""], script: script), ["bash", "fish", "zsh"])
        XCTAssertEqual(try bashCompletes(["rivesyncd", "--port", ""], script: script), [], "a number is not completed")
        XCTAssertEqual(try bashCompletes(["rivesyncd", "--config", "s"], script: script, in: directory), ["site.json", "state"])
        XCTAssertEqual(try bashCompletes(["rivesyncd", "--state-dir", "s"], script: script, in: directory), ["state"])
    }

    func testFishCompletesFlagsAndValues() throws {
        let script = try script("fish")
        defer { try? FileManager.default.removeItem(atPath: script) }
        let directory = try directoryWithFiles()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        XCTAssertEqual(try fishCompletes("rivesyncd --log-for", script: script, in: directory), ["--log-format"])
        XCTAssertEqual(try fishCompletes("rivesyncd --log-format ", script: script, in: directory), ["json", "text"])
        XCTAssertEqual(try fishCompletes("rivesyncd --config si", script: script, in: directory), ["site.json"])
        XCTAssertEqual(try fishCompletes("rivesyncd --state-dir st", script: script, in: directory), ["state/"])
    }

    /// The flags `rivesyncd --help` lists (the flag table's).
    func helpFlags() throws -> [String] {
        let help = try ChildProcess.run(DaemonProcess.binary(), ["--help"], seconds: 30)
        let flags = help.stdout.split(separator: "\n").filter { $0.hasPrefix("  --") }.map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(flags.count, 15, help.stdout)
        return flags
    }

    /// zsh parses its script, and every flag of `--help` is in it.
    func testZshScriptParsesAndNamesEveryFlag() throws {
        let path = try script("zsh")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let parsed = try ChildProcess.run("/usr/bin/zsh", ["-n", path], seconds: 30)
        XCTAssertEqual(parsed.status, 0, parsed.stderr)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for flag in try helpFlags() { XCTAssertTrue(text.contains("'\(flag)["), "zsh: \(flag)") }
    }

    /// rivesyncd(8) documents every flag `--help` lists.
    func testTheManPageNamesEveryFlag() throws {
        let page = try String(contentsOfFile: DaemonProcess.packageRoot + "/man/rivesyncd.8", encoding: .utf8)
        for flag in try helpFlags() {
            XCTAssertTrue(page.contains(flag.replacing("-", with: #"\-"#)), "rivesyncd(8) does not name \(flag)")
        }
    }

    func testAnotherShellIsAUsageError() throws {
        let result = try ChildProcess.run(DaemonProcess.binary(), ["--completion", "tcsh"], seconds: 30)
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, "rivesyncd: --completion: expected one of bash, zsh, fish\nsee rivesyncd --help\n")
    }
}
