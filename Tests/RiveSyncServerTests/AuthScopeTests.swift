import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

@testable import RiveSyncServer

/// The rules of scopes and tokens files, without a daemon.
@Suite struct AuthScopeTests {
    static func grants(_ json: JSONValue) throws -> Grants { try Grants(json: json, here: "scopes") }

    @Test func pathPrefixesMatchWholeSegments() throws {
        let grants = try Self.grants([["allow": ["read"], "target": "character", "paths": ["@Theme/", "players/2"]]])
        for path in ["@Theme", "@Theme/background", "players/2", "players/2/x"] {
            #expect(grants.allows(.read, on: "character", at: path), "\(path)")
        }
        for path in ["@Themes/background", "players/20", "players", "", "mood"] {
            #expect(!grants.allows(.read, on: "character", at: path), "\(path)")
        }
        #expect(!grants.allows(.write, on: "character", at: "@Theme/background"))
        #expect(!grants.allows(.read, on: "lobby", at: "@Theme/background"))
        #expect(!grants.allowsSubscription(to: "character", paths: nil), "a prefix-limited reader cannot take the whole target")
        #expect(grants.allowsSubscription(to: "character", paths: ["@Theme/name", "players/2/x"]))
        #expect(!grants.allowsSubscription(to: "character", paths: ["@Theme/name", "mood"]))
    }

    @Test func targetPatternsAndInstanceIdPaths() throws {
        let rooms = try Self.grants([["allow": ["read", "fire"], "target": "room-*"]])
        #expect(rooms.allows(.fire, on: "room-7", at: "x"))
        #expect(!rooms.allows(.fire, on: "lobby", at: "x"))
        #expect(!rooms.allows(.read, on: "room-7", at: "#3/x"), "an #id path needs the permission on every target")
        let everywhere = try Self.grants([["allow": ["read"], "target": "*"]])
        #expect(everywhere.allows(.read, on: "room-7", at: "#3/x"))
        let everywhereUnderAPath = try Self.grants([["allow": ["read"], "target": "*", "paths": ["x"]]])
        #expect(!everywhereUnderAPath.allows(.read, on: "room-7", at: "#3/x"))
    }

    @Test func requestsNeedTheirPermissions() throws {
        let writer = try Self.grants([
            ["allow": ["write"], "target": "lobby", "paths": ["players"]], ["allow": ["fire"], "target": "character"],
        ])
        #expect(writer.denial(of: .set(target: "lobby", path: "players/0/x", value: 3)) == nil)
        #expect(writer.denial(of: .set(target: "lobby", path: "host", value: ["instance": 5]))?.permission == .write)
        #expect(writer.denial(of: .listAppend(target: "lobby", path: "players", instance: InstanceID(5))) == Denial(permission: .create))
        #expect(writer.denial(of: .get(target: "lobby", path: "players")) == Denial(permission: .read, target: "lobby", path: "players"))
        #expect(writer.denial(of: .advance(target: "character")) == nil, "fire somewhere is enough to advance")
        #expect(writer.denial(of: .digest(target: "lobby"))?.permission == .read)
        #expect(writer.denial(of: .loadFile(name: "x", content: .schema(.object([]))))?.permission == .load)
        #expect(writer.shows("lobby") && !writer.shows("theme"))
        #expect(!writer.allows(.metrics) && Grants.everything.allows(.metrics))
        #expect(writer.denial(of: .deleteTarget(target: "lobby")) == Denial(permission: .create))
        let creator = try Self.grants([["allow": ["create"]], ["allow": ["write"], "target": "room-*"]])
        #expect(creator.denial(of: .deleteTarget(target: "room-1")) == nil)
        #expect(creator.denial(of: .deleteTarget(target: "lobby"))?.permission == .write)
        #expect(try Self.grants([["allow": ["metrics"]]]).allows(.metrics))
        #expect(writer.denial(of: .unsubscribe(target: "theme")) == nil)
    }

    @Test func tokensFilesAreCheckedStrictly() throws {
        func table(_ entry: JSONValue) throws -> TokenTable { try TokenTable(json: ["tokens": [entry]], here: "tokens.json") }
        let scopes: JSONValue = [["allow": ["read"], "target": "*"]]
        let invalid: [JSONValue] = [
            ["name": "a", "token": "short", "scopes": scopes],
            ["name": "a", "token": "long-enough-token-123", "sha256": .string(String(repeating: "0", count: 64)), "scopes": scopes],
            ["name": "a", "sha256": "abc", "scopes": scopes],
            ["name": "a", "token": "long-enough-token-123"],
            ["name": "a", "token": "long-enough-token-123", "scopes": scopes, "admin": true],
            ["name": "a", "token": "long-enough-token-123", "scopes": [["allow": ["read"], "target": "x", "paths": ["#3"]]]],
            ["name": "a", "token": "long-enough-token-123", "scopes": [["allow": ["create"], "target": "x"]]],
            ["name": "a", "token": "long-enough-token-123", "scopes": [["allow": ["metrics"], "target": "x"]]],
            ["name": "a", "token": "long-enough-token-123", "scopes": [["allow": ["read", "metrics"], "target": "x"]]],
            ["name": "a", "token": "long-enough-token-123", "scopes": [["allow": ["read", "load"], "target": "x"]]],
            ["name": "a", "token": "long-enough-token-123", "scopes": [["allow": [], "target": "x"]]],
            ["name": "a", "token": "long-enough-token-123", "scopes": [["allow": ["read"]]]],
        ]
        for entry in invalid {
            #expect(throws: ConfigurationError.self, "\(entry.jsonText)") { try table(entry) }
        }
        let twice: JSONValue = [
            "tokens": [
                ["name": "a", "token": "long-enough-token-123", "scopes": scopes],
                ["name": "b", "token": "long-enough-token-123", "scopes": scopes],
            ]
        ]
        #expect(throws: ConfigurationError.self) { try TokenTable(json: twice, here: "tokens.json") }
    }

    @Test func tokensMatchByPlainTextOrDigest() throws {
        let abcDigest = "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"
        let tokens = try TokenTable(
            json: [
                "tokens": [
                    ["name": "plain", "token": "long-enough-token-123", "scopes": []],
                    ["name": "hashed", "sha256": .string(abcDigest), "scopes": []],
                ]
            ],
            here: "tokens.json")
        #expect(tokens.entry(forToken: "long-enough-token-123")?.name == "plain")
        #expect(tokens.entry(forToken: "abc")?.name == "hashed", "SHA-256 of 'abc', given in upper case")
        #expect(tokens.entry(forToken: "long-enough-token-12") == nil)
        #expect(tokens.entry(forDigest: TokenTable.digest(of: "abc"))?.name == "hashed")
    }

    @Test func authSectionDefaults() throws {
        #expect(DaemonConfiguration().auth.anonymous == .loopback)
        let strict = try DaemonConfiguration.Auth(json: ["tokensFile": "t.json"], baseDirectory: "/etc/rivesync")
        #expect(strict.anonymous == .denied && strict.tokensFile == "/etc/rivesync/t.json")
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.Auth(json: ["allowAnonymous": false], baseDirectory: "/") }
        #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.Auth(json: ["tokensFile": "t.json", "anonymousScopes": []], baseDirectory: "/")
        }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.Auth(json: ["allowAnonymous": "yes"], baseDirectory: "/") }
    }
}
