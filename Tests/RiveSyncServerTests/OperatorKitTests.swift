import Foundation
import RiveSyncJSON
import RiveSyncServer
import RiveSyncTestSupport
import Testing

/// The operator's first hour, through the real rivesyncd: `--generate-config` (a commented
/// file `--check-config` accepts), `--generate-token` (a tokens file the daemon accepts the
/// token of), `logFormat: json`, one `listening` line and the pages' addresses once,
/// `--check-config` without cascades, and `rivesync` as a name of the same binary.
@Suite(.serialized) struct OperatorKitTests {
    static func rivesyncd(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(DaemonProcess.binary(), arguments, output: .separate, seconds: 60)
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-ops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theGeneratedConfigurationIsValidAndNamesEveryTopLevelKey() throws {
        let generated = try Self.rivesyncd(["--generate-config"])
        #expect(generated.status == 0 && generated.stderr.isEmpty, "\(generated.stderr)")
        let path = try DaemonProcess.writeConfiguration(generated.stdout)
        let checked = try Self.rivesyncd(["--check-config", path])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout == "\(path): valid\n")
        for key in ConfigurationKeys.sections[""] ?? [] {
            #expect(generated.stdout.contains("\"\(key)\""), "--generate-config does not mention \(key)")
        }
        #expect(generated.stdout.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") })
        let refused = try Self.rivesyncd(["--generate-config", "--demo"])
        #expect(refused.status == 64, "\(refused.stderr)")
    }

    /// A comment line in a configuration keeps a JSON error's position the file's own.
    @Test func commentLinesAreBlankedInPlace() throws {
        let text = "// one\n  // two\n{\"auth\": {\"allowAnonymous\": \"loopback\"}, \"workers\": }\n"
        let path = try DaemonProcess.writeConfiguration(text)
        let checked = try Self.rivesyncd(["--check-config", path])
        #expect(checked.status == 1)
        // The closing brace where a value should be: line 3 of the file, its last character.
        let column = #"{"auth": {"allowAnonymous": "loopback"}, "workers": }"#.count
        #expect(checked.stderr == "rivesyncd: \(path):3:\(column): not JSON: unexpected character\n", "\(checked.stderr)")
        let valid = try DaemonProcess.writeConfiguration(
            "// one\n{\"auth\": {\"allowAnonymous\": \"loopback\"},\n  // \"workers\": 3,\n \"workers\": 2}\n")
        let accepted = try Self.rivesyncd(["--check-config", valid])
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test func aGeneratedTokenIsAcceptedAndEachIsNew() async throws {
        let first = try Self.rivesyncd(["--generate-token"])
        let second = try Self.rivesyncd(["--generate-token"])
        #expect(first.status == 0 && second.status == 0)
        let token = try #require(first.stderr.split(separator: " ").last.map { String($0.dropLast()) })
        let other = try #require(second.stderr.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(token != other)
        #expect(token.count == 43 && token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "\(token)")
        #expect(!first.stdout.contains(token), "the tokens file keeps only the token's SHA-256")
        let tokens = try JSONParser().parse(first.stdout)
        let tokensFile = try JSONParser().parse(tokens.jsonText)
        #expect(tokensFile["tokens"]?.arrayValue?.first?["sha256"]?.stringValue?.count == 64)

        try await withAuthDaemon(auth: [("allowAnonymous", false)], tokens: tokensFile) { server in
            let client = try await server.connect(token: token)
            let got = try await client.request(["type": "get", "target": "character", "path": "mood"])
            #expect(got["type"] == "value", "\(got.jsonText)")
            let stranger = try TestClient(url: server.daemon.url)
            let refused = try await stranger.request(AuthDaemon.hello(other))
            #expect(refused["code"] == "unauthorized", "\(refused.jsonText)")
        }
    }

    @Test func theJSONLogFormatWritesOneObjectPerLine() async throws {
        try await withDaemon(["--demo", "--log-format", "json", "--log-level", "debug"]) { daemon in
            let client = try await TestClient.connected(to: daemon)
            client.close()
            try await daemon.waitForLine(containing: #""message":"connection closed""#)
            await daemon.stopped()
            let lines = daemon.stderrLines
            #expect(lines.count > 5)
            let stamp = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/#
            for line in lines {
                let object = try JSONParser().parse(String(line))
                let keys = object.objectValue?.map(\.0) ?? []
                #expect(Array(keys.prefix(3)) == ["time", "level", "message"], "\(line)")
                #expect(object["time"]?.stringValue?.wholeMatch(of: stamp) != nil, "\(line)")
                #expect(["debug", "info", "warning", "error"].contains(object["level"]?.stringValue ?? ""), "\(line)")
            }
            let lws = lines.compactMap { try? JSONParser().parse(String($0)) }.filter { $0["source"] == "lws" }
            #expect(!lws.isEmpty, "libwebsockets' lines are JSON too")
            let closed = lines.compactMap { try? JSONParser().parse(String($0)) }.first { $0["message"] == "connection closed" }
            #expect(closed?["remote"] == "127.0.0.1", "fields are members: \(closed?.jsonText ?? "none")")
        }
    }

    @Test func theDemoSaysListeningAndWhereItsPagesAreOnce() async throws {
        try await withDaemon(["--demo"]) { daemon in
            await daemon.stopped()
            let lines = daemon.stderrLines
            #expect(lines.filter { $0.contains("listening") }.count == 1, "\(daemon.stderr)")
            let root = "http://127.0.0.1:\(daemon.port)/"
            #expect(
                lines.filter { $0.contains("inspector at") } == [
                    #"level=info msg="inspector at \#(root), preview at \#(root)preview.html""#
                ],
                "\(daemon.stderr)")
        }
        let path = try EnvironmentConfigurationTests.demoConfiguration()
        try await withDaemon(["--config", path]) { daemon in
            await daemon.stopped()
            #expect(!daemon.stderr.contains("inspector at"), "no pages, no addresses: \(daemon.stderr)")
        }
    }

    /// An instance left out for a wrong key, another whose view model is misspelt: each is
    /// reported once, and the state machines bound to them still have their own problems
    /// reported (not a "no published instance" that only follows from the first). An entry with
    /// an unknown key besides right ones is kept (what binds to it is fine), and a problem of an
    /// entry after one left out names its own position.
    @Test func checkConfigReportsIndependentProblemsWithoutCascades() throws {
        let schema = DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json"
        let path = try DaemonProcess.writeConfiguration(
            #"""
            {"files": [{"name": "demo", "path": "\#(schema)"}, {"name": "gone", "paht": "x.riv"}],
             "instances": [{"name": "theme", "file": "demo", "viewmodel": "Theme"},
                           {"name": "light", "file": "demo", "viewModel": "Theme", "note": "kept"},
                           {"name": "dark", "file": "demo", "viewModel": "Them"}],
             "stateMachines": [7, {"name": "c", "file": "demo", "artboard": "Charactr", "globals": {"Theme": "theme"}},
                               {"name": "l", "file": "demo", "artboard": "Lobby", "stateMachine": "nope", "globals": {"Theme": "dark"}},
                               {"name": "g", "file": "gone", "artboard": "Lobby"},
                               {"name": "k", "file": "demo", "artboard": "Lobby", "note": "kept", "globals": {"Theme": "light"}}],
             "listen": {"port": -1},
             "auth": {"allowAnonymous": "loopback"}}
            """#)
        let result = try Self.rivesyncd(["--check-config", path])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map { $0.replacingOccurrences(of: "rivesyncd: \(path): ", with: "") }
        #expect(
            lines == [
                "listen.port: expected an integer in 0...65535",
                "files[1].paht: unknown key; did you mean 'path'? (one of name, path, schema, worker)",
                "files[1]: give exactly one of 'path' and 'schema'",
                "instances[0].viewmodel: unknown key; did you mean 'viewModel'? (one of name, file, viewModel, instance)",
                "instances[0].viewModel: required",
                "instances[1].note: unknown key (one of name, file, viewModel, instance)",
                "stateMachines[0]: expected an object",
                "stateMachines[4].note: unknown key (one of name, file, artboard, stateMachine, globals, mode, rate)",
                "instances[2].viewModel: invalid view model: Them",
                "stateMachines[1].artboard: no artboard 'Charactr'",
                "stateMachines[2].stateMachine: no state machine 'nope'",
            ], "\(result.stderr)")
    }

    /// Started as `rivesync` (the package installs it as a link to rivesyncd), the binary is
    /// the command line.
    @Test func rivesyncdIsTheCommandLineWhenCalledRivesync() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }  // best effort: a temporary directory
        let link = directory.appendingPathComponent("rivesync").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: DaemonProcess.binary())
        let version = try ChildProcess.run(link, ["--version"], output: .merged, seconds: 30)
        #expect(version.status == 0 && version.output.hasPrefix("rivesync "), "\(version.output)")
        let help = try ChildProcess.run(link, ["--help"], output: .merged, seconds: 30)
        #expect(help.output.contains("watch"), "the command line's help: \(help.output)")
    }
}
