import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Tokens and scopes: nothing but `hello` without a valid token, typed `unauthorized` /
/// `forbidden` errors that carry no value, path-limited readers that see only their paths
/// (through the whole daemon in-process); tokens kept out of the log, `/metrics` and SIGHUP
/// reloads that apply to open connections (through a real `rivesyncd`).
@Suite(.serialized) struct AuthTests {
    static let admin = "admin-token-0123456789"
    static let reader = "reader-token-0123456789"
    static let themer = "themer-token-0123456789"
    static let namer = "namer-token-0123456789"

    static let tokens: JSONValue = [
        "tokens": [
            AuthDaemon.token(
                "admin", admin, [["allow": ["read", "write", "fire"], "target": "*"], ["allow": ["create", "load", "metrics"]]]),
            AuthDaemon.token("reader", reader, [["allow": ["read"], "target": "character"]]),
            AuthDaemon.token("themer", themer, [["allow": ["read", "write"], "target": "character", "paths": ["@Theme/"]]]),
            AuthDaemon.token(
                "namer", namer,
                [
                    ["allow": ["read"], "target": "character", "paths": ["@Theme/name"]],
                    ["allow": ["read"], "target": "lobby", "paths": ["players/0/name"]],
                ]),
        ]
    ]

    @Test func withoutATokenOnlyHelloIsAnswered() async throws {
        // A long hello timeout: on a loaded machine these requests could outlast the default 10 s.
        try await withInProcessAuthDaemon(
            auth: [("allowAnonymous", false)], tokens: Self.tokens, extra: [("limits", ["helloTimeoutSeconds": 300])]
        ) { server in
            let client = server.daemon.connect()
            for request: JSONValue in [["type": "ping"], ["type": "listTargets"], ["type": "get", "target": "character", "path": "mood"]] {
                let reply = try await client.request(request)
                #expect(reply["code"] == "hello_required", "\(reply.jsonText)")
            }
            let refused = try await client.request(AuthDaemon.hello(nil))
            #expect(refused["type"] == "error" && refused["code"] == "unauthorized", "\(refused.jsonText)")
            #expect(try await client.closeCodeWhenClosed() == 1008)
        }
    }

    @Test func aBadTokenIsUnauthorizedAndClosed() async throws {
        try await withAuthDaemon(auth: [], tokens: Self.tokens) { server in
            let client = try TestClient(url: server.daemon.url)
            let refused = try await client.request(AuthDaemon.hello(Self.admin + "x"))
            #expect(refused["code"] == "unauthorized", "\(refused.jsonText)")
            #expect(try await client.closeCodeWhenClosed() == 1008)
            #expect(!server.daemon.stderr.contains(Self.admin), "tokens are never logged")
        }
    }

    @Test func aReadOnlyTokenReadsButCannotWrite() async throws {
        try await withInProcessAuthDaemon(auth: [], tokens: Self.tokens) { server in
            let client = try await server.connect(token: Self.reader)
            let snapshot = try await client.request(["type": "subscribe", "target": "character"])
            #expect(snapshot["type"] == "snapshot", "\(snapshot.jsonText)")
            let value = try await client.request(["type": "get", "target": "character", "path": "mood"])
            #expect(value["type"] == "value", "\(value.jsonText)")
            let targets = try await client.request(["type": "listTargets"])
            #expect(targets["targets"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["character"], "only targets it may use")
            let forbidden: [JSONValue] = [
                ["type": "set", "target": "character", "path": "mood", "value": 3],
                ["type": "fire", "target": "character", "path": "success"],
                ["type": "get", "target": "lobby", "path": "title"],
                ["type": "get", "target": "character", "path": "#1/name"],
                ["type": "subscribe", "target": "no-such-target"],
                ["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]],
            ]
            for request in forbidden {
                let reply = try await client.request(request)
                #expect(reply["code"] == "forbidden", "\(request.jsonText) → \(reply.jsonText)")
            }
        }
    }

    @Test func aPathPrefixTokenWritesAndReadsOnlyUnderItsPrefix() async throws {
        try await withInProcessAuthDaemon(auth: [], tokens: Self.tokens) { server in
            let themer = try await server.connect(token: Self.themer)
            let admin = try await server.connect(token: Self.admin)

            let outside = try await themer.request(["type": "set", "target": "character", "path": "mood", "value": 4])
            #expect(outside["code"] == "forbidden", "\(outside.jsonText)")
            for request: JSONValue in [
                ["type": "subscribe", "target": "character", "paths": ["@Theme/name", "mood"]],
                ["type": "subscribe", "target": "character"],
                ["type": "get", "target": "character", "path": "mood"],
                ["type": "get", "target": "character", "path": "#1/name"],
                ["type": "get", "target": "character", "path": "@Themes/name"],
            ] {
                let reply = try await themer.request(request)
                #expect(reply["code"] == "forbidden", "\(request.jsonText) → \(reply.jsonText)")
                #expect(reply["values"] == nil && reply["value"] == nil && reply["instances"] == nil, "no value leaks: \(reply.jsonText)")
            }

            let snapshot = try await themer.request(["type": "subscribe", "target": "character", "paths": ["@Theme/name"]])
            #expect(snapshot["values"]?["@Theme/name"] == "Light", "\(snapshot.jsonText)")
            #expect(snapshot["values"]?.objectValue?.count == 1)

            let moodAck = try await admin.request(["type": "set", "target": "character", "path": "mood", "value": 7])
            #expect(moodAck["type"] == "ack", "\(moodAck.jsonText)")
            let inside = try await themer.request(["type": "set", "target": "character", "path": "@Theme/name", "value": "Dusk"])
            #expect(inside["type"] == "ack", "\(inside.jsonText)")
            let batch = try await themer.nextBatch("character")
            #expect(batch["seq"] == inside["seq"], "the mood batch was filtered out: \(batch.jsonText)")
            #expect(!batch.jsonText.contains("mood"), "\(batch.jsonText)")
        }
    }

    /// A bind or list insert above a limited reader's paths brings whole instance states
    /// (`introduced`); the reader gets only the values on its paths, a whole-target reader all.
    @Test func anAttachAboveAPathLimitedReaderShowsItOnlyItsPaths() async throws {
        try await withInProcessAuthDaemon(auth: [], tokens: Self.tokens) { server in
            let namer = try await server.connect(token: Self.namer)
            let admin = try await server.connect(token: Self.admin)
            let names = try await namer.request(["type": "subscribe", "target": "character", "paths": ["@Theme/name"]])
            #expect(names["values"] == ["@Theme/name": "Light"], "\(names.jsonText)")
            let seats = try await namer.request(["type": "subscribe", "target": "lobby", "paths": ["players/0/name"]])
            #expect(seats["type"] == "error" && seats["code"] == "index_out_of_range", "no item 0 yet: \(seats.jsonText)")
            #expect(try await admin.request(["type": "subscribe", "target": "character"])["type"] == "snapshot")

            let dark = try await admin.request([
                "type": "createInstance", "file": "demo", "source": ["name": "Dark", "viewModel": "Theme"],
            ])
            let darkID = try #require(dark["instance"])
            #expect(
                try await admin.request(["type": "bind", "target": "character", "globals": [["name": "Theme", "instance": darkID]]])["type"]
                    == "ack")
            let limited = try await namer.nextBatch("character")
            let full = try await admin.nextBatch("character")
            #expect(
                limited["effects"]?.arrayValue?.first?["op"] == "bind" && limited["effects"]?.arrayValue?.first?["instance"] == darkID,
                "\(limited.jsonText)")
            #expect(
                limited["effects"]?.arrayValue?.first?["introduced"] == [
                    ["id": darkID, "viewModel": "Theme", "name": "Dark", "values": ["name": "Dark"]]
                ],
                "only @Theme/name of the new theme: \(limited.jsonText)")
            let fullValues = full["effects"]?.arrayValue?.first?["introduced"]?.arrayValue?.first?["values"]?.objectValue?.map(\.0).sorted()
            #expect(fullValues == ["accent", "background", "foreground", "mode", "name"], "\(full.jsonText)")

            let guest = try await admin.request([
                "type": "createInstance", "file": "demo", "source": ["name": "Guest", "viewModel": "Player"],
            ])
            let guestID = try #require(guest["instance"])
            let first = try await admin.request(["type": "listAppend", "target": "lobby", "path": "players", "instance": guestID])
            #expect(first["type"] == "ack", "\(first.jsonText)")
            #expect(
                try await namer.request(["type": "subscribe", "target": "lobby", "paths": ["players/0/name"]])["values"] == [
                    "players/0/name": "Guest"
                ])
            let host = try await admin.request(["type": "createInstance", "file": "demo", "source": ["default": ["viewModel": "Player"]]])
            let hostID = try #require(host["instance"])
            #expect(
                try await admin.request(["type": "listInsert", "target": "lobby", "path": "players", "index": 0, "instance": hostID])[
                    "type"]
                    == "ack")
            let insert = try await namer.nextBatch("lobby")
            let introduced = insert["effects"]?.arrayValue?.first?["introduced"]
            #expect(
                introduced?.arrayValue?.first?["id"] == hostID
                    && introduced?.arrayValue?.first?["values"]?.objectValue?.map(\.0) == ["name"],
                "\(insert.jsonText)")
            #expect(introduced?.arrayValue?.count == 1)
        }
    }

    /// `GET /metrics` needs the `metrics` permission: a bearer token that has it, or anonymous
    /// access that has it; `/healthz` stays open for probes.
    @Test func metricsNeedTheMetricsPermission() async throws {
        try await withAuthDaemon(auth: [], tokens: Self.tokens) { server in
            func get(_ path: String, token: String?) async throws -> (status: Int, body: String, challenge: String?) {
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.daemon.port)\(path)")!)
                if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
                let (data, response) = try await URLSession.shared.data(for: request)
                let http = try #require(response as? HTTPURLResponse)
                return (http.statusCode, String(decoding: data, as: UTF8.self), http.value(forHTTPHeaderField: "WWW-Authenticate"))
            }
            let anonymous = try await get("/metrics", token: nil)
            #expect(anonymous.status == 401 && anonymous.challenge?.hasPrefix("Bearer") == true, "\(anonymous)")
            #expect(!anonymous.body.contains("rivesync_"))
            #expect(try await get("/metrics", token: Self.admin + "x").status == 401)
            let reader = try await get("/metrics", token: Self.reader)
            #expect(reader.status == 403 && !reader.body.contains("rivesync_"), "a valid token without the permission: \(reader)")
            let admin = try await get("/metrics", token: Self.admin)
            #expect(admin.status == 200 && admin.body.contains("rivesync_transport_connections"), "\(admin)")
            #expect(try await get("/healthz", token: nil) == (200, "ok\n", nil))

            try await withAuthDaemon(
                auth: [("allowAnonymous", true), ("anonymousScopes", [["allow": ["read"], "target": "*"]])], tokens: Self.tokens
            ) { open in
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(open.daemon.port)/metrics")!)
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 401, "anonymous scopes without metrics")
                request.setValue("Bearer \(Self.admin)", forHTTPHeaderField: "Authorization")
                let (_, withToken) = try await URLSession.shared.data(for: request)
                #expect((withToken as? HTTPURLResponse)?.statusCode == 200)
            }
        }
    }

    @Test func anonymousAccessGetsOnlyItsScopes() async throws {
        try await withInProcessAuthDaemon(
            auth: [("allowAnonymous", true), ("anonymousScopes", [["allow": ["read"], "target": "the*"]])], tokens: nil
        ) { server in
            let client = try await server.connect(token: nil)
            let value = try await client.request(["type": "get", "target": "theme", "path": "name"])
            #expect(value["value"] == "Light", "\(value.jsonText)")
            let write = try await client.request(["type": "set", "target": "theme", "path": "name", "value": "Dark"])
            #expect(write["code"] == "forbidden", "\(write.jsonText)")
            let other = try await client.request(["type": "get", "target": "character", "path": "mood"])
            #expect(other["code"] == "forbidden", "\(other.jsonText)")
            let unknownToken = try await server.daemon.connect().request(AuthDaemon.hello("not-a-token-of-this-daemon"))
            #expect(unknownToken["code"] == "unauthorized", "a given token must be valid even with anonymous access")
        }
    }

    /// With two transport threads the two connections are served on different threads, each
    /// by its own connection core (`Dispatchers`): the reload reaches both.
    @Test(arguments: [1, 2])
    func reloadAddsRevokesAndNarrowsTokens(transportThreads: Int) async throws {
        let threads: [(String, JSONValue)] = [("transportThreads", .number(Double(transportThreads)))]
        try await withAuthDaemon(auth: [], tokens: Self.tokens, extra: threads) { server in
            let revoked = try await server.connect(token: Self.admin)
            let narrowed = try await server.connect(token: Self.reader)
            let whole = try await narrowed.request(["type": "subscribe", "target": "character"])
            #expect(whole["type"] == "snapshot")

            let newcomer = "newcomer-token-0123456789"
            let newcomerDigest = try Self.sha256Hex(newcomer)
            try server.writeTokens([
                "tokens": [
                    AuthDaemon.token("reader", Self.reader, [["allow": ["read"], "target": "character", "paths": ["mood"]]]),
                    ["name": "newcomer", "sha256": .string(newcomerDigest), "scopes": [["allow": ["read", "write"], "target": "*"]]],
                ]
            ])
            try await server.reload(until: "tokens reloaded")

            #expect(try await revoked.closeCodeWhenClosed() == 1008, "a revoked token's connection is closed at reload")
            let ended = try await narrowed.next(where: { $0["type"] == "unsubscribed" })
            #expect(ended["target"] == "character" && ended["id"] == nil, "\(ended.jsonText)")
            let stillAllowed = try await narrowed.request(["type": "get", "target": "character", "path": "mood"])
            #expect(stillAllowed["type"] == "value", "\(stillAllowed.jsonText)")
            let nowForbidden = try await narrowed.request(["type": "subscribe", "target": "character"])
            #expect(nowForbidden["code"] == "forbidden", "\(nowForbidden.jsonText)")

            let added = try await server.connect(token: newcomer)
            let write = try await added.request(["type": "set", "target": "lobby", "path": "title", "value": "Reloaded"])
            #expect(write["type"] == "ack", "\(write.jsonText)")
            let old = try TestClient(url: server.daemon.url)
            let refused = try await old.request(AuthDaemon.hello(Self.admin))
            #expect(refused["code"] == "unauthorized", "\(refused.jsonText)")

            try Data("{ not json".utf8).write(to: URL(fileURLWithPath: server.tokensPath))
            try await server.reload(until: "tokens file rejected")
            let kept = try await server.connect(token: newcomer)
            #expect(try await kept.request(["type": "ping"])["type"] == "pong", "a rejected file keeps the old tokens")
        }
    }

    /// Lower-case hex SHA-256, computed by `sha256sum` (independent of the daemon's code).
    static func sha256Hex(_ text: String) throws -> String {
        let sum = try ChildProcess.run("/usr/bin/sha256sum", [], input: .text(text), seconds: 60)
        try #require(sum.status == 0, "sha256sum: \(sum.stderr)")
        return String(sum.stdout.prefix(64))
    }
}
