import Foundation
import RiveSyncTestSupport
import RiveSyncVersion
import Testing

/// What an operator runs into: `--version`, `--check-config`, refused flag combinations,
/// SIGHUP's report of what it applied and what needs a restart, and the state directory's
/// precedence over an edited configuration.
@Suite(.serialized) struct OperatorTests {
    static let demoSchema = DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json"

    static func rivesyncd(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(DaemonProcess.binary(), arguments, output: .merged, seconds: 60)
    }

    /// A configuration serving the demo schema, with `stateMachines` and extra top-level keys.
    static func configuration(stateMachines: String, extra: String = "") -> String {
        """
        {"files": [{"name": "demo", "path": "\(demoSchema)"}],
         "instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}],
         "stateMachines": \(stateMachines),
         \(extra)
         "auth": {"allowAnonymous": "loopback"}}
        """
    }

    @Test func versionIsTheSharedReleaseNumber() throws {
        let result = try Self.rivesyncd(["--version"])
        #expect(result.status == 0)
        #expect(result.output == "rivesyncd \(RiveSyncVersion.current)\n")
    }

    @Test func checkConfigListsEveryProblemByKeyPath() throws {
        let path = try DaemonProcess.writeConfiguration(
            Self.configuration(
                stateMachines:
                    #"[{"name": "c", "file": "demo", "artboard": "Charactr"}, {"name": "l", "file": "demo", "artboard": "Lobby", "globals": {"Theme": "them"}}, {"name": "x", "file": "nofile"}]"#,
                extra: #""workers": 0, "limits": {"maxSubscriptions": 0},"#))
        let result = try Self.rivesyncd(["--check-config", path])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "rivesyncd: \(path): workers: expected an integer in 1...64",
                "rivesyncd: \(path): limits.maxSubscriptions: expected an integer in 1...100000",
                "rivesyncd: \(path): stateMachines[0].artboard: no artboard 'Charactr'",
                "rivesyncd: \(path): stateMachines[1].globals.Theme: no published instance 'them' in file 'demo'",
                "rivesyncd: \(path): stateMachines[2].file: no file 'nofile'",
            ], "the values' problems, then, in the same run, what loading the rest finds:\n\(result.output)")
        let fixed = try DaemonProcess.writeConfiguration(
            Self.configuration(
                stateMachines:
                    #"[{"name": "c", "file": "demo", "artboard": "Charactr"}, {"name": "l", "file": "demo", "artboard": "Lobby", "globals": {"Theme": "them"}}, {"name": "x", "file": "nofile"}, {"name": "s", "file": "demo", "artboard": "Lobby", "stateMachine": "nope"}]"#
            ))
        let semantic = try Self.rivesyncd(["--check-config", fixed])
        #expect(semantic.status == 1)
        #expect(
            semantic.output.split(separator: "\n").map(String.init) == [
                "rivesyncd: \(fixed): stateMachines[0].artboard: no artboard 'Charactr'",
                "rivesyncd: \(fixed): stateMachines[1].globals.Theme: no published instance 'them' in file 'demo'",
                "rivesyncd: \(fixed): stateMachines[2].file: no file 'nofile'",
                "rivesyncd: \(fixed): stateMachines[3].stateMachine: no state machine 'nope'",
            ], "\(semantic.output)")
        let good = try DaemonProcess.writeConfiguration(
            Self.configuration(stateMachines: #"[{"name": "c", "file": "demo", "artboard": "Character", "globals": {"Theme": "theme"}}]"#))
        let valid = try Self.rivesyncd(["--check-config", good])
        #expect(valid.status == 0 && valid.output == "\(good): valid\n", "\(valid.output)")
        let missing = try Self.rivesyncd(["--check-config", "/nonexistent/config.json"])
        #expect(
            missing.status == 1
                && missing.output == "rivesyncd: /nonexistent/config.json: no such file (ENOENT)\n",
            "\(missing.output)")
    }

    @Test func checkConfigReadsTheFilesItNames() throws {
        let path = try DaemonProcess.writeConfiguration(
            #"""
            {"auth": {"tokensFile": "tokens.json"}, "tls": {"certificate": "missing.pem", "key": "missing.key"},
             "files": [{"name": "x", "path": "missing.riv"}, {"name": "y", "schema": {"viewModels": [{"name": 1}]}},
                       {"name": "z", "path": "bad.json"}],
             "stateMachines": [{"name": "s", "file": "x"}]}
            """#,
            files: ["tokens.json": #"{"tokens": [{"name": "a", "token": "short"}]}"#, "bad.json": "{"])
        let directory = (path as NSString).deletingLastPathComponent
        let result = try Self.rivesyncd(["--check-config", path])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map { $0.replacingOccurrences(of: "rivesyncd: \(path): ", with: "") }
        #expect(
            lines == [
                "tls.certificate: \(directory)/missing.pem: no such file (ENOENT)",
                "tls.key: \(directory)/missing.key: no such file (ENOENT)",
                "auth.tokensFile: \(directory)/tokens.json: tokens[0].token: expected a string of at least 16 bytes",
                "files[0].path: \(directory)/missing.riv: no such file (ENOENT)",
                "files[1].schema: viewModels[0].name: expected a string",
                "files[2].path: \(directory)/bad.json:1:2: not JSON: expected a string key",
            ], "\(result.output)")
    }

    /// `--check-config` finds the state directory a start would refuse (it said `valid`), and
    /// makes nothing.
    @Test(arguments: [
        ("typo/state", "typo/state: its parent directory DIR/typo does not exist (create it first)"),
        ("state", "state: not a directory"),
    ])
    func checkConfigChecksTheStateDirectory(stateDirectory: String, problem: String) throws {
        let path = try DaemonProcess.writeConfiguration(
            Self.configuration(stateMachines: "[]", extra: #""stateDirectory": "\#(stateDirectory)","#), files: ["state": "a file\n"])
        let directory = (path as NSString).deletingLastPathComponent
        let result = try Self.rivesyncd(["--check-config", path])
        #expect(result.status == 1)
        let expected = "rivesyncd: \(path): stateDirectory: \(directory)/" + problem.replacingOccurrences(of: "DIR", with: directory)
        #expect(result.output == expected + "\n", "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/typo"))
    }

    @Test func checkConfigLoadsTheCertificatePair() throws {
        let path = try DaemonProcess.writeConfiguration(
            #"{"auth": {"allowAnonymous": true}, "tls": {"certificate": "cert.pem", "key": "key.pem"}}"#,
            files: ["cert.pem": "not a certificate\n", "key.pem": "not a key\n"])
        let directory = (path as NSString).deletingLastPathComponent
        let result = try Self.rivesyncd(["--check-config", path])
        #expect(result.status == 1)
        #expect(result.output == "rivesyncd: \(path): tls: cannot load the certificate chain '\(directory)/cert.pem'\n", "\(result.output)")
    }

    @Test func theSameErrorsStopTheDaemonWithoutADump() throws {
        let path = try DaemonProcess.writeConfiguration(
            Self.configuration(stateMachines: #"[{"name": "c", "file": "demo", "artboard": "Charactr"}]"#))
        let result = try Self.rivesyncd(["--config", path, "--port", "0"])
        #expect(result.status == 1)
        let logged = #"level=error msg="not started" error="stateMachines[0].artboard: no artboard 'Charactr'""#
        #expect(result.output == logged + "\n", "\(result.output)")
    }

    /// `--state-dir` makes a missing state directory, but not a whole missing path: a typo in a
    /// parent is refused.
    @Test func aStateDirectoryWithAMissingParentIsRefused() throws {
        let base = NSTemporaryDirectory() + "rivesyncd-state-parent-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let deep = base + "/typo/state"
        let result = try Self.rivesyncd(["--demo", "--port", "0", "--state-dir", deep])
        #expect(result.status == 1)
        let logged = #"level=error msg="not started" error="\#(deep): its parent directory \#(base)/typo does not exist (create it first)""#
        #expect(result.output == logged + "\n", "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: base), "nothing of the path was created")
    }

    /// A second daemon on a port in use (the newcomer's demo still running) says what to do.
    @Test func aPortInUseSaysWhatToDo() async throws {
        try await withDaemon(["--demo"]) { first in
            let port = first.port
            let result = try await offThePool { try Self.rivesyncd(["--demo", "--port", String(port)]) }
            #expect(result.status == 1)
            let reason =
                "Address already in use (another process listens there, a running rivesyncd perhaps: stop it, or choose another port)"
            let logged = #"level=error msg="not started" error="listen: cannot bind 127.0.0.1:\#(first.port): \#(reason)""#
            #expect(result.output.hasSuffix(logged + "\n"), "\(result.output)")
        }
    }

    /// A state directory the daemon cannot make its subdirectories in is named with the OS's
    /// reason, in the words of the other file errors (this one: a file where `files/` goes).
    @Test func aStateDirectoryWhoseSubdirectoryCannotBeMadeSaysWhy() throws {
        let base = NSTemporaryDirectory() + "rivesyncd-state-blocked-\(getpid())"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(FileManager.default.createFile(atPath: base + "/files", contents: Data("x".utf8)))
        let result = try Self.rivesyncd(["--demo", "--port", "0", "--state-dir", base])
        #expect(result.status == 1)
        let reason = "cannot create directory: a file that is not a directory has its name (EEXIST)"
        let logged = #"level=error msg="not started" error="\#(base)/files: \#(reason)""#
        #expect(result.output == logged + "\n", "\(result.output)")
    }

    @Test(arguments: [
        (["--demo", "--config", "x.json"], "rivesyncd: --demo and --config exclude each other"),
        (["--config", "x.json", "--demo"], "rivesyncd: --config and --demo exclude each other"),
        (["--config", "a.json", "--config", "b.json"], "rivesyncd: --config given twice"),
        (["--demo", "--port", "1", "--port", "2"], "rivesyncd: --port given twice"),
        (["--check-config", "a.json", "--port", "1"], "rivesyncd: --check-config takes no other flag"),
        (["--check-config", "a.json", "--demo"], "rivesyncd: --check-config and --demo exclude each other"),
        (["--demo", "--log-level", "loud"], "rivesyncd: --log-level: expected one of debug, info, warning, error"),
        ([], "rivesyncd: give --demo or --config FILE"),
        (["--demo", "--prot", "1"], "rivesyncd: unknown argument '--prot' (did you mean '--port'?)"),
        (["--demo", "--frobnicate"], "rivesyncd: unknown argument '--frobnicate'"),
    ])
    func contradictoryFlagsAreRefused(arguments: [String], message: String) throws {
        let result = try Self.rivesyncd(arguments)
        #expect(result.status == 64)
        #expect(result.output == message + "\nsee rivesyncd --help\n", "\(result.output)")
    }

    @Test func sighupReportsEveryChangedKey() async throws {
        let machines = #"[{"name": "c", "file": "demo", "artboard": "Character", "globals": {"Theme": "theme"}}]"#
        let path = try DaemonProcess.writeConfiguration(
            Self.configuration(stateMachines: machines, extra: #""limits": {"maxSubscriptions": 10},"#))
        try await withDaemon(["--config", path]) { daemon in
            let edited = Self.configuration(
                stateMachines:
                    #"[{"name": "c", "file": "demo", "artboard": "Character", "globals": {"Theme": "theme"}, "rate": 30}, {"name": "l", "file": "demo", "artboard": "Lobby"}]"#,
                extra:
                    #""workers": 3, "defaultRate": 20, "logLevel": "debug", "allowFileUploads": true, "limits": {"maxSubscriptions": 20, "maxConnections": 5},"#
            )
            try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
            let lines = try await daemon.reload()
            for expected in [
                #"msg="reload: applied" key=limits.maxSubscriptions old=10 new=20"#,
                #"msg="reload: not applied; needs a restart" key=limits.maxConnections old=10000 new=5"#,
                #"msg="reload: applied" key=logLevel old=info new=debug"#,
                #"msg="reload: not applied; needs a restart" key=workers"#,
                #"msg="reload: not applied; needs a restart" key=stateMachines[0]"#,
                #"msg="reload: not applied; needs a restart" key=stateMachines[1]"#,
                #"msg="reload: not applied; needs a restart" key=allowFileUploads"#,
                #"msg="reload: not applied; needs a restart" key=defaultRate"#,
                #"msg="reload: done" path="#,
            ] {
                #expect(lines.contains { $0.contains(expected) }, "missing \(expected) in\n\(lines.joined(separator: "\n"))")
            }
            #expect(lines.contains { $0.hasSuffix("applied=2 ignored=6") }, "\(lines.joined(separator: "\n"))")
            // The new level is in force: a connection is now logged at debug.
            _ = try await TestClient.connected(to: daemon)
            try await daemon.waitForLine(containing: #"level=debug msg="connection opened""#)
            // Nothing changed since: a second SIGHUP still reports what needs a restart, and
            // applies nothing again.
            let again = try await daemon.reload()
            #expect(again.contains { $0.hasSuffix("applied=0 ignored=6") }, "\(again.joined(separator: "\n"))")
        }
    }

    @Test func theStateDirectoryWinsAndSaysSo() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let first = Self.configuration(
            stateMachines: #"[{"name": "c", "file": "demo", "artboard": "Character", "globals": {"Theme": "theme"}}]"#)
        let path = try DaemonProcess.writeConfiguration(first)
        let before = try await DaemonProcess.start(["--config", path, "--state-dir", state])
        #expect(await before.stopped() == 0)
        #expect(!before.stderr.contains("overridden"), "\(before.stderr)")
        let unchanged = try await DaemonProcess.start(["--config", path, "--state-dir", state])
        #expect(await unchanged.stopped() == 0)
        #expect(!unchanged.stderr.contains("overridden"), "a restart with the same configuration warns of nothing:\n\(unchanged.stderr)")
        let edited = Self.configuration(
            stateMachines: #"[{"name": "c", "file": "demo", "artboard": "Lobby", "globals": {"Theme": "theme"}, "mode": "manual"}]"#)
        try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
        try await withDaemon(["--config", path, "--state-dir", state]) { after in
            let warning = try await after.waitForLine(containing: #"msg="configuration overridden by the state directory""#)
            #expect(
                warning.hasPrefix("level=warning ") && warning.contains("key=stateMachines[0]")
                    && warning.hasSuffix(#"detail="the state directory keeps 'c' with mode auto, artboard 'Character'""#),
                "\(warning)")
        }
    }
}
