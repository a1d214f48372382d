import Foundation
import RiveSyncTestSupport
import XCTest

/// Every shell block of README.md, docs/*.md and the clients' READMEs runs as written, twice
/// (docs/DOCS-TESTS.md): at the repository's root, with the built `rivesync` and `rivesyncd`
/// first on `PATH`, after starting the daemon its marker asks for on port 7420 (the port the
/// documents name).
final class DocsBlockTests: XCTestCase {
    /// The documents whose blocks run, relative to the repository's root.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: DaemonProcess.packageRoot + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs + ["clients/js/README.md", "clients/python/README.md"]
    }

    func testEveryShellBlockRunsTwice() throws {
        var ran = 0
        for document in try Self.documents() {
            let text = try String(contentsOfFile: DaemonProcess.packageRoot + "/" + document, encoding: .utf8)
            for block in DocsBlock.blocks(in: text) {
                let place = "\(document):\(block.line)"
                switch block.marker {
                case .missing(let line):
                    XCTFail("\(place): a shell block without a docs-test marker before it (found '\(line)')")
                case .skip(let reason):
                    print("docs-test: skip \(place): \(reason)")
                case .plain:
                    try runTwice(block, at: place)
                    ran += 1
                case .daemon(let arguments):
                    let daemon = try Self.daemon(arguments)
                    defer { daemon.stop() }
                    try runTwice(block, at: place, daemon: daemon)
                    if arguments == ["--demo"] { try expectDemoTargets(on: daemon, after: place) }
                    ran += 1
                }
            }
        }
        XCTAssertGreaterThan(ran, 0, "no shell block ran")
    }

    /// The README opens with the two commands a newcomer types first (only the marker, unseen
    /// on GitHub, is before them).
    func testTheReadmeStartsWithTheTwoCommands() throws {
        let readme = try String(contentsOfFile: DaemonProcess.packageRoot + "/README.md", encoding: .utf8)
        let first = try XCTUnwrap(DocsBlock.blocks(in: readme).first)
        XCTAssertEqual(first.line, 2)
        XCTAssertEqual(
            first.script,
            """
            sh .ci/setup.sh && swift run -c release rivesyncd --demo   # set up and run the daemon on the built-in demo
            sh .ci/run                                                 # set up and run every test

            """)
    }

    func testMarkersAreRead() {
        let markdown = """
            <!-- docs-test: daemon --config examples/quickstart.json -->
            ```sh
            rivesync ls
            ```
            <!-- docs-test: skip needs root -->

            ```bash
            apt install x
            ```
            ```console
            $ echo hi
            hi
            ```
            ```json
            {}
            ```
            <!-- docs-test: plain -->
            ```sh
            true
            ```
            """
        XCTAssertEqual(
            DocsBlock.blocks(in: markdown),
            [
                DocsBlock(line: 2, language: "sh", marker: .daemon(["--config", "examples/quickstart.json"]), script: "rivesync ls\n"),
                DocsBlock(line: 7, language: "bash", marker: .skip("needs root"), script: "apt install x\n"),
                DocsBlock(line: 10, language: "console", marker: .missing(""), script: "echo hi\n"),
                DocsBlock(line: 18, language: "sh", marker: .plain, script: "true\n"),
            ])
        XCTAssertEqual(DocsBlock.marker("<!-- docs-test: skip -->"), .missing("<!-- docs-test: skip -->"), "a skip needs a reason")
        XCTAssertEqual(DocsBlock.marker("<!-- docs-test: plane -->"), .missing("<!-- docs-test: plane -->"))
    }

    /// Runs `block` twice (it must be re-runnable), failing on a non-zero exit.
    private func runTwice(_ block: DocsBlock, at place: String, daemon: DaemonProcess? = nil) throws {
        let path = RivesyncProcess.productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for run in 1...2 {
            let result = try ChildProcess.run(
                block.shell, ["-e", "-c", "cd '\(DaemonProcess.packageRoot)'\n" + block.script], environment: ["PATH": path],
                keeping: { !$0.hasPrefix("RIVESYNC_") }, seconds: 120)
            XCTAssertEqual(
                result.status, 0,
                """
                \(place), run \(run): exit \(result.status)
                \(block.script)stdout:
                \(result.stdout)stderr:
                \(result.stderr)\(daemon.map { "rivesyncd stderr:\n\($0.stderr)" } ?? "")
                """)
        }
    }

    /// A block run on the demo leaves it usable: every target the demo starts with is there
    /// (a block that deletes one makes it again).
    private func expectDemoTargets(on daemon: DaemonProcess, after place: String) throws {
        let listed = try RivesyncProcess.run(["ls", "--url", daemon.url])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let targets = Set(
            listed.stdout.split(separator: "\n").filter { $0.hasPrefix("target ") }.map { String($0.split(separator: " ")[1]) })
        let demo: Set = ["character", "lobby", "manual-target", "theme"]
        XCTAssertTrue(demo.isSubset(of: targets), "\(place) left the demo without \(demo.subtracting(targets).sorted()): \(listed.stdout)")
    }

    /// `rivesyncd arguments…` on the port they name, else 7420; arguments naming a file of the
    /// repository are given as its absolute path (the daemon starts in the test's directory).
    private static func daemon(_ arguments: [String]) throws -> DaemonProcess {
        var rest = arguments
        var port = 7420
        if let flag = rest.firstIndex(of: "--port"), flag + 1 < rest.count, let named = Int(rest[flag + 1]) {
            port = named
            rest.removeSubrange(flag...(flag + 1))
        }
        let root = DaemonProcess.packageRoot + "/"
        let resolved = rest.map { FileManager.default.fileExists(atPath: root + $0) && !$0.hasPrefix("-") ? root + $0 : $0 }
        return try DaemonProcess(resolved, port: port)
    }
}
