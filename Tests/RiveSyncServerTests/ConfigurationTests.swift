import RiveSyncJSON
import RiveSyncServer
import Testing

/// Configuration files are checked before anything starts.
@Suite struct ConfigurationTests {
    @Test func anonymousAccessMustBeExplicit() throws {
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration(json: ["files": []], baseDirectory: "/") }
        let loopback = try DaemonConfiguration(json: ["auth": ["allowAnonymous": "loopback"]], baseDirectory: "/")
        #expect(loopback.auth.anonymous == .loopback)
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration(json: ["auth": [:]], baseDirectory: "/") }
    }

    /// The pages are off in a configuration file unless enabled, and read-only unless said;
    /// `--demo` serves them with their editors.
    @Test func inspectorIsOffAndReadOnlyByDefault() throws {
        let plain = try DaemonConfiguration(json: ["auth": ["allowAnonymous": "loopback"]], baseDirectory: "/")
        #expect(plain.inspector == DaemonConfiguration.Inspector(enabled: false, readOnly: true))
        let on = try DaemonConfiguration(
            json: ["auth": ["allowAnonymous": "loopback"], "inspector": ["enabled": true]], baseDirectory: "/")
        #expect(on.inspector == DaemonConfiguration.Inspector(enabled: true, readOnly: true))
        #expect(DaemonConfiguration.demo().inspector == DaemonConfiguration.Inspector(enabled: true, readOnly: false))
    }

    /// The cluster's `WAIT` settings default to none and are read within their bounds.
    @Test func clusterWaitSettings() throws {
        let plain = try DaemonConfiguration(
            json: ["auth": ["allowAnonymous": "loopback"], "cluster": ["redis": "redis://h"]], baseDirectory: "/")
        #expect(plain.cluster?.waitForReplicas == 0 && plain.cluster?.waitTimeoutMilliseconds == 1000)
        let waiting = try DaemonConfiguration(
            json: [
                "auth": ["allowAnonymous": "loopback"],
                "cluster": ["redis": "redis-sentinel://s1,s2/main", "waitForReplicas": 2, "waitTimeoutMilliseconds": 250],
            ], baseDirectory: "/")
        #expect(waiting.cluster?.waitForReplicas == 2 && waiting.cluster?.waitTimeoutMilliseconds == 250)
        for (key, value): (String, JSONValue) in [("waitForReplicas", -1), ("waitForReplicas", 17), ("waitTimeoutMilliseconds", 5)] {
            #expect(throws: ConfigurationError.self, "\(key) \(value.jsonText)") {
                try DaemonConfiguration(
                    json: ["auth": ["allowAnonymous": "loopback"], "cluster": .object([("redis", "redis://h"), (key, value)])],
                    baseDirectory: "/")
            }
        }
    }

    @Test(arguments: [
        #"{"auth": {"allowAnonymous": true}, "nonsense": 1}"#,
        #"{"auth": {"allowAnonymous": true}, "workers": 0}"#,
        #"{"auth": {"allowAnonymous": true}, "durability": "sometimes"}"#,
        #"{"auth": {"allowAnonymous": true}, "limits": {"maxSubscriptions": 0}}"#,
        #"{"auth": {"allowAnonymous": true}, "limits": {"maxWhatever": 1}}"#,
        #"{"auth": {"allowAnonymous": true}, "files": [{"name": "x"}]}"#,
        #"{"auth": {"allowAnonymous": true}, "stateMachines": [{"name": "s", "file": "f", "mode": "fast"}]}"#,
        #"{"auth": {"allowAnonymous": true}, "inspector": true}"#,
        #"{"auth": {"allowAnonymous": true}, "inspector": {"enabled": "yes"}}"#,
        #"{"auth": {"allowAnonymous": true}, "inspector": {"readonly": false}}"#,
    ])
    func badConfigurationsAreRefused(text: String) throws {
        let json = try JSONParser().parse(text)
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration(json: json, baseDirectory: "/") }
    }
}
