import Foundation
import RiveSyncJSON
import RiveSyncServer
import RiveSyncTestSupport
import Testing

/// `config/rivesyncd.conf.schema.json` and the rivesyncd.conf(5) man page are held against the
/// parser both ways: the same keys, the same limit ranges and defaults, and the same verdict
/// (from an independent validator, Python's jsonschema) on valid and invalid configurations.
@Suite struct ConfigurationSchemaTests {
    static let schemaPath = DaemonProcess.packageRoot + "/config/rivesyncd.conf.schema.json"
    static let manPagePath = DaemonProcess.packageRoot + "/man/rivesyncd.conf.5"

    static func schema() throws -> JSONValue {
        try JSONParser().parse(try String(contentsOfFile: schemaPath, encoding: .utf8))
    }

    /// The key paths a schema describes, in `ConfigurationKeys.keyPaths`' notation.
    static func keyPaths(of node: JSONValue, root: JSONValue, prefix: String) -> [String] {
        var node = node
        if let reference = node["$ref"]?.stringValue, reference.hasPrefix("#/$defs/") {
            node = root["$defs"]?[String(reference.dropFirst(8))] ?? node
        }
        if let items = node["items"], node["type"] == "array" { return keyPaths(of: items, root: root, prefix: prefix + "[]") }
        var paths: [String] = []
        for (key, child) in node["properties"]?.objectValue ?? [] {
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            paths.append(path)
            if child["properties"] != nil || child["items"]?["properties"] != nil || child["items"]?["$ref"] != nil {
                paths += keyPaths(of: child, root: root, prefix: path)
            }
        }
        return paths
    }

    @Test func theSchemaHasEveryKeyOfTheParserAndNoOther() throws {
        let schema = try Self.schema()
        let described = Set(Self.keyPaths(of: schema, root: schema, prefix: ""))
        let parsed = Set(ConfigurationKeys.keyPaths)
        #expect(parsed.subtracting(described).sorted() == [], "keys the parser knows that rivesyncd.conf.schema.json lacks")
        #expect(described.subtracting(parsed).sorted() == [], "keys in rivesyncd.conf.schema.json that the parser refuses")
    }

    @Test func theManPageDocumentsEveryKey() throws {
        let page = try String(contentsOfFile: Self.manPagePath, encoding: .utf8)
        for path in ConfigurationKeys.keyPaths {
            #expect(page.contains(".B \(path)\n") || page.contains(".BR \(path) "), "rivesyncd.conf(5) has no entry for \(path)")
        }
    }

    @Test func limitRangesAndDefaultsAreTheSettingsTable() throws {
        let limits = try #require(try Self.schema()["properties"]?["limits"]?["properties"])
        let defaults = Dictionary(uniqueKeysWithValues: Limits().wireLimits.map { ($0.name, $0.value) })
        for setting in Limits.settings {
            let entry = limits[setting.name]
            let value = try #require(defaults[setting.name], "welcome limits lack \(setting.name)")
            #expect(entry?["minimum"]?.intValue == setting.range.lowerBound, "limits.\(setting.name) minimum")
            #expect(entry?["maximum"]?.intValue == setting.range.upperBound, "limits.\(setting.name) maximum")
            #expect(entry?["default"]?.intValue == value, "limits.\(setting.name) default")
            let reload = setting.reloadable ? "reloaded on SIGHUP" : "needs a restart"
            #expect(entry?["description"]?.stringValue?.contains(reload) == true, "limits.\(setting.name): say '\(reload)'")
        }
    }

    @Test func defaultsInTheSchemaAreTheParsersDefaults() throws {
        let schema = try Self.schema()
        let properties = try #require(schema["properties"])
        let parsed = try DaemonConfiguration(json: ["auth": ["allowAnonymous": true]], baseDirectory: "/")
        let expected: [(JSONValue?, JSONValue)] = [
            (properties["listen"]?["properties"]?["host"]?["default"], .string(parsed.host)),
            (properties["listen"]?["properties"]?["port"]?["default"], .number(Double(parsed.port))),
            (properties["workers"]?["default"], .number(Double(parsed.workers))),
            (properties["allowFileUploads"]?["default"], .bool(parsed.allowFileUploads)),
            (properties["defaultRate"]?["default"], .number(parsed.defaultRate)),
            (properties["durability"]?["default"], .string(parsed.durability.rawValue)),
            (properties["snapshotEvery"]?["default"], .number(Double(parsed.snapshotEvery))),
            (properties["authors"]?["default"], .bool(parsed.authors)),
            (properties["logLevel"]?["default"], .string(parsed.logLevel.rawValue)),
            (properties["metrics"]?["properties"]?["maxTargetLabels"]?["default"], .number(Double(parsed.maxTargetLabels))),
            (properties["inspector"]?["properties"]?["enabled"]?["default"], .bool(parsed.inspector.enabled)),
            (properties["inspector"]?["properties"]?["readOnly"]?["default"], .bool(parsed.inspector.readOnly)),
        ]
        for (documented, actual) in expected { #expect(documented == actual) }
    }

    /// Configurations with the verdict both the parser and the schema must give.
    static let cases: [(text: String, valid: Bool)] = [
        (#"{"auth": {"allowAnonymous": "loopback"}}"#, true),
        (#"{"auth": {"tokensFile": "tokens.json"}, "listen": {"host": "0.0.0.0", "port": 0}, "workers": 64}"#, true),
        (
            #"{"auth": {"tokensFile": "t.json", "allowAnonymous": true, "anonymousScopes": [{"allow": ["read"], "target": "*", "paths": ["@Theme"]}, {"allow": ["metrics"]}], "allowedOrigins": ["https://a.example"]}}"#,
            true
        ),
        (
            #"{"auth": {"allowAnonymous": true}, "files": [{"name": "a", "path": "a.riv", "worker": 1}, {"name": "b", "schema": {"viewModels": []}}], "instances": [{"name": "t", "file": "a", "viewModel": "Theme", "instance": "Dark"}], "stateMachines": [{"name": "m", "file": "a", "artboard": "Main", "stateMachine": "SM", "globals": {"Theme": "t"}, "mode": "manual", "rate": 0.5}]}"#,
            true
        ),
        (
            #"{"auth": {"allowAnonymous": true}, "tls": {"certificate": "c.pem", "key": "k.pem"}, "stateDirectory": "/var/lib/x", "durability": "everysec", "snapshotEvery": 10, "defaultRate": 1000, "allowFileUploads": true, "logLevel": "debug", "metrics": {"maxTargetLabels": 0}, "limits": {"maxSubscriptions": 1, "historyBatches": 1000000}}"#,
            true
        ),
        (#"{}"#, false),
        (#"[]"#, false),
        (#"{"auth": {}}"#, false),
        (#"{"auth": {"allowAnonymous": false}}"#, false),
        (#"{"auth": {"allowAnonymous": "sometimes"}}"#, false),
        (#"{"auth": {"tokensFile": ""}}"#, false),
        (#"{"auth": {"tokensFile": "t.json", "anonymousScopes": [{"allow": ["read"], "target": "*"}]}}"#, false),
        (#"{"auth": {"allowAnonymous": true, "anonymousScopes": [{"allow": ["read", "metrics"], "target": "*"}]}}"#, false),
        (#"{"auth": {"allowAnonymous": true, "anonymousScopes": [{"allow": ["metrics"], "target": "*"}]}}"#, false),
        (#"{"auth": {"allowAnonymous": true, "anonymousScopes": [{"allow": ["read"]}]}}"#, false),
        (#"{"auth": {"allowAnonymous": true, "anonymousScopes": [{"allow": []}]}}"#, false),
        (#"{"auth": {"allowAnonymous": true, "allowedOrigins": [1]}}"#, false),
        (#"{"auth": {"allowAnonymous": true, "tokens": "x"}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "nonsense": 1}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "listen": 7420}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "listen": {"port": 65536}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "listen": {"address": "::"}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "workers": 0}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "workers": 1.5}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "tls": {"certificate": "c.pem"}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "stateDirectory": 1}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "durability": "sometimes"}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "snapshotEvery": 9}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "defaultRate": 0}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "allowFileUploads": "yes"}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "authors": false, "limits": {"maxTransactionCommands": 1}}"#, true),
        (#"{"auth": {"allowAnonymous": true}, "authors": "no"}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "limits": {"maxTransactionCommands": 0}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "logLevel": "loud"}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "metrics": {"maxTargetLabels": -1}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "metrics": {"labels": 1}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "inspector": {"enabled": true, "readOnly": false}}"#, true),
        (#"{"auth": {"allowAnonymous": true}, "inspector": true}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "inspector": {"readonly": false}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "limits": {"maxSubscriptions": 0}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "limits": {"maxWhatever": 1}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "files": {}}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "files": [{"name": "x"}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "files": [{"name": "x", "path": "a", "schema": {}}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "files": [{"name": "x", "schema": 1}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "files": [{"name": "x", "path": "a", "wrker": 1}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "files": [{"path": "a"}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "files": [1]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "instances": [{"name": "t", "file": "a"}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "instances": [{"name": "t", "file": "a", "viewModel": "V", "instance": 3}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "stateMachines": [{"name": "s", "file": "f", "mode": "fast"}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "stateMachines": [{"name": "s", "file": "f", "rate": 1001}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "stateMachines": [{"name": "s", "file": "f", "rate": "fast"}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "stateMachines": [{"name": "s", "file": "f", "globals": {"Theme": 1}}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "stateMachines": [{"name": "s", "file": "f", "globals": []}]}"#, false),
        (#"{"auth": {"allowAnonymous": true}, "stateMachines": [{"file": "f"}]}"#, false),
    ]

    @Test func theParserAndTheSchemaGiveTheSameVerdicts() throws {
        var documents = try Self.cases.map { try JSONParser().parse($0.text) }
        let example = try String(contentsOfFile: DaemonProcess.packageRoot + "/config/example.json", encoding: .utf8)
        documents.append(try JSONParser().parse(example))
        let expected = Self.cases.map(\.valid) + [true]
        let validator = try ChildProcess.run(
            PythonScript.pathPython, [PythonScript.path("validate_config.py"), Self.schemaPath],
            input: .text(JSONValue.array(documents).jsonText), output: .merged, seconds: 60)
        try #require(validator.status == 0, "validate_config.py: \(validator.output)")
        let verdicts = try JSONParser().parse(validator.output.trimmingCharacters(in: .whitespacesAndNewlines)).arrayValue ?? []
        try #require(verdicts.count == documents.count, "\(validator.output)")
        for (i, document) in documents.enumerated() {
            var parserError: String?
            do { _ = try DaemonConfiguration(json: document, baseDirectory: "/") } catch { parserError = error.description }
            let schemaError = verdicts[i].stringValue
            let text = i < Self.cases.count ? Self.cases[i].text : "config/example.json"
            #expect((parserError == nil) == expected[i], "parser on \(text): \(parserError ?? "accepted")")
            #expect((schemaError == nil) == expected[i], "schema on \(text): \(schemaError ?? "accepted")")
        }
    }
}
