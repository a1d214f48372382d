import Foundation
import RiveSyncJSON
import RiveSyncServer
import RiveSyncTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `RIVESYNC_*` environment variables through the real rivesyncd: one per key outside lists,
/// over the file and under the flags, shown and checked by `--check-config`, a wrong value
/// named by its variable.
@Suite(.serialized) struct EnvironmentConfigurationTests {
    static func rivesyncd(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Result {
        try ChildProcess.run(DaemonProcess.binary(), arguments, environment: environment, output: .separate, seconds: 60)
    }

    static func demoConfiguration(_ extra: String = "") throws -> String {
        let schema = DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json"
        return try DaemonProcess.writeConfiguration(
            #"{"files": [{"name": "demo", "path": "\#(schema)"}], \#(extra) "auth": {"allowAnonymous": "loopback"}}"#)
    }

    @Test func everyKeyOutsideListsHasOneVariable() {
        let variables = ConfigurationEnvironment.variables
        #expect(Set(variables.map(\.variable)).count == variables.count, "two keys share a variable")
        let byKey = Dictionary(uniqueKeysWithValues: variables.map { ($0.keyPath, $0.variable) })
        #expect(byKey["listen.port"] == "RIVESYNC_LISTEN_PORT")
        #expect(byKey["limits.maxJSONDepth"] == "RIVESYNC_LIMITS_MAX_JSON_DEPTH")
        #expect(byKey["auth.tokensFile"] == "RIVESYNC_AUTH_TOKENS_FILE")
        #expect(byKey["cluster.leaseMilliseconds"] == "RIVESYNC_CLUSTER_LEASE_MILLISECONDS")
        #expect(byKey["files"] == "RIVESYNC_FILES")
        #expect(byKey["logFormat"] == "RIVESYNC_LOG_FORMAT")
        #expect(byKey["listen"] == nil && byKey["files[].name"] == nil, "sections and list items have no variable")
        let expected = ConfigurationKeys.keyPaths.filter { !$0.contains("[]") && ConfigurationKeys.sections[$0] == nil }
        #expect(Set(byKey.keys) == Set(expected))
    }

    /// The man page documents every variable.
    @Test func theManPageNamesEveryVariable() throws {
        let page = try String(contentsOfFile: DaemonProcess.packageRoot + "/man/rivesyncd.8", encoding: .utf8)
        #expect(page.contains("RIVESYNC_LISTEN_PORT"))
        #expect(page.contains(".SH ENVIRONMENT"))
        let text = page.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\_", with: "_")
        for (variable, _) in ConfigurationEnvironment.variables where variable.hasPrefix("RIVESYNC_LIMITS_") == false {
            #expect(text.contains(variable), "rivesyncd(8) does not name \(variable)")
        }
    }

    @Test func checkConfigShowsAndChecksTheVariables() throws {
        let path = try Self.demoConfiguration()
        let environment = [
            "RIVESYNC_LISTEN_PORT": "8123", "RIVESYNC_LIMITS_MAX_SUBSCRIPTIONS": "5", "RIVESYNC_AUTH_ALLOW_ANONYMOUS": "loopback",
            "RIVESYNC_LISTEN_PROT": "1",
        ]
        let valid = try Self.rivesyncd(["--check-config", path], environment: environment)
        #expect(valid.status == 0, "\(valid.output)")
        #expect(
            valid.stdout == """
                RIVESYNC_AUTH_ALLOW_ANONYMOUS sets auth.allowAnonymous
                RIVESYNC_LIMITS_MAX_SUBSCRIPTIONS sets limits.maxSubscriptions
                RIVESYNC_LISTEN_PORT sets listen.port
                \(path): valid

                """)
        #expect(
            valid.stderr
                == "rivesyncd: warning: RIVESYNC_LISTEN_PROT is no setting of rivesyncd (ignored) (did you mean RIVESYNC_LISTEN_PORT?)\n")

        let wrong = try Self.rivesyncd(
            ["--check-config", path], environment: ["RIVESYNC_LISTEN_PORT": "seventy", "RIVESYNC_LIMITS_MAX_SUBSCRIPTIONS": "0"])
        #expect(wrong.status == 1)
        #expect(
            wrong.stderr.split(separator: "\n") == [
                "rivesyncd: \(path): listen.port (RIVESYNC_LISTEN_PORT): expected an integer in 0...65535",
                "rivesyncd: \(path): limits.maxSubscriptions (RIVESYNC_LIMITS_MAX_SUBSCRIPTIONS): expected an integer in 1...100000",
            ], "\(wrong.stderr)")
    }

    /// A variable beats the file, a flag beats the variable: seen in the log format (file
    /// `text`, variable `json`, flag `text`) and in the limits `welcome` announces.
    @Test func theFileThenTheEnvironmentThenTheFlags() async throws {
        let path = try Self.demoConfiguration(#""logFormat": "text", "limits": {"maxSubscriptions": 7},"#)
        let environment = ["RIVESYNC_LOG_FORMAT": "json", "RIVESYNC_LIMITS_MAX_SUBSCRIPTIONS": "3"]
        try await withDaemon(["--config", path], environment: environment) { daemon in
            let client = try TestClient(url: daemon.url)
            let welcome = try await client.request(["type": "hello", "protocol": [1]])
            #expect(welcome["limits"]?["maxSubscriptions"]?.intValue == 3, "\(welcome.jsonText)")
            await daemon.stopped()
            let listening = daemon.stderrLines.first { $0.contains("listening on") } ?? ""
            let parsed = try JSONParser().parse(String(listening))
            #expect(parsed["message"]?.stringValue?.hasPrefix("listening on 127.0.0.1:") == true, "\(listening)")
        }
        try await withDaemon(["--config", path, "--log-format", "text"], environment: environment) { daemon in
            await daemon.stopped()
            #expect(daemon.stderrLines.contains { $0.hasPrefix(#"level=info msg="listening on "#) }, "\(daemon.stderr)")
        }
    }

    /// With `--demo`, a variable of a section changes that key and keeps the demo's others.
    @Test func theDemoTakesVariablesToo() async throws {
        try await withDaemon(["--demo"], environment: ["RIVESYNC_INSPECTOR_READ_ONLY": "true"]) { daemon in
            let url = try #require(URL(string: "http://127.0.0.1:\(daemon.port)/inspector-config.json"))
            let (body, _) = try await URLSession.shared.data(from: url)
            let config = try JSONParser().parse([UInt8](body))
            #expect(config["readOnly"] == .bool(true), "\(config.jsonText)")
        }
    }

    @Test func aWrongVariableKeepsTheDaemonFromStarting() throws {
        let path = try Self.demoConfiguration()
        let result = try Self.rivesyncd(["--config", path, "--port", "0"], environment: ["RIVESYNC_WORKERS": "many"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"error="workers (RIVESYNC_WORKERS): expected an integer in 1...64""#), "\(result.stderr)")
    }
}
