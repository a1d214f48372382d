import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Scopes hold when instances move: attaching an instance (list append or insert, nested
/// replacement, bind, a new state machine, publish) needs read — and write or fire, where the
/// connection could change it through its new place — wherever a target already shows it.
/// A refused attach looks exactly like an id that does not exist. Errors to a write-only
/// token carry no state, `describe` shows authored values only to creators (all through the
/// whole daemon in-process), and an empty `Origin` header is an origin (a real socket).
@Suite(.serialized) struct AttachScopeTests {
    static let admin = "admin-token-0123456789"
    static let room = "room-token-0123456789"
    static let reader = "reader-token-0123456789"
    static let owner = "owner-token-0123456789"
    static let writeOnly = "write-only-token-0123456789"

    static let tokens: JSONValue = [
        "tokens": [
            AuthDaemon.token("admin", admin, [["allow": ["read", "write", "fire"], "target": "*"], ["allow": ["create", "load"]]]),
            // read/write on the lobby's players only, plus create: the attack of issue 17.
            AuthDaemon.token(
                "room", room, [["allow": ["read", "write"], "target": "lobby", "paths": ["players"]], ["allow": ["create"]]]),
            AuthDaemon.token(
                "reader", reader,
                [
                    ["allow": ["read", "write"], "target": "lobby", "paths": ["players"]], ["allow": ["read"], "target": "vault"],
                    ["allow": ["create"]],
                ]),
            AuthDaemon.token(
                "owner", owner,
                [
                    ["allow": ["read", "write"], "target": "lobby", "paths": ["players"]],
                    ["allow": ["read", "write"], "target": "vault"], ["allow": ["create"]],
                ]),
            AuthDaemon.token("writer", writeOnly, [["allow": ["write"], "target": "lobby"]]),
        ]
    ]

    /// A daemon with a second lobby, `vault`, whose host is named `secret`; returns the
    /// daemon and the id of the vault's host.
    static func daemonWithVault() async throws -> (InProcessAuthDaemon, Int) {
        let server = try InProcessAuthDaemon(auth: [], tokens: tokens)
        let admin = try await server.connect(token: Self.admin)
        let created = try await admin.request(["type": "createStateMachine", "file": "demo", "artboard": "Lobby", "name": "vault"])
        try #require(created["type"] == "target", "\(created.jsonText)")
        let named = try await admin.request(["type": "set", "target": "vault", "path": "host/name", "value": "secret"])
        try #require(named["type"] == "ack", "\(named.jsonText)")
        let host = try await admin.request(["type": "get", "target": "vault", "path": "host"])
        return (server, try #require(host["value"]?["instance"]?.intValue))
    }

    /// An error's code, and its message with the instance id taken out.
    static func shape(_ reply: JSONValue, id: Int) -> String {
        "\(reply["type"]?.stringValue ?? "") \(reply["code"]?.stringValue ?? "") "
            + (reply["message"]?.stringValue ?? "").replacingOccurrences(of: String(id), with: "N")
    }

    @Test func anotherTargetsInstanceCannotBeAttachedWithoutReadingIt() async throws {
        let (vault, host) = try await Self.daemonWithVault()
        try await stopping(vault) { server in
            let room = try await server.connect(token: Self.room)
            let appended = try await room.request([
                "type": "listAppend", "target": "lobby", "path": "players", "instance": .number(Double(host)),
            ])
            let missing = host + 100_000
            let nonexistent = try await room.request([
                "type": "listAppend", "target": "lobby", "path": "players", "instance": .number(Double(missing)),
            ])
            #expect(appended["code"] == "unknown_instance", "\(appended.jsonText)")
            #expect(Self.shape(appended, id: host) == Self.shape(nonexistent, id: missing), "a refused attach looks like a missing id")
            let inserted = try await room.request([
                "type": "listInsert", "target": "lobby", "path": "players", "index": 0, "instance": .number(Double(host)),
            ])
            #expect(inserted["code"] == "unknown_instance", "\(inserted.jsonText)")
            let players = try await room.request(["type": "get", "target": "lobby", "path": "players"])
            #expect(players["value"] == [], "nothing was attached: \(players.jsonText)")
        }
    }

    @Test func aStateMachineCannotBeBoundToAnInstanceItCannotRead() async throws {
        let (vault, _) = try await Self.daemonWithVault()
        try await stopping(vault) { server in
            let admin = try await server.connect(token: Self.admin)
            let bindings = try await admin.request(["type": "listTargets"])
            let vault = try #require(bindings["targets"]?.arrayValue?.first { $0["name"] == "vault" })
            let main = try #require(vault["bindings"]?.arrayValue?.first { $0["slot"] == "main" }?["instance"]?.intValue)
            let room = try await server.connect(token: Self.room)
            let created = try await room.request([
                "type": "createStateMachine", "file": "demo", "artboard": "Lobby", "name": "mine", "main": .number(Double(main)),
            ])
            #expect(created["code"] == "unknown_instance", "\(created.jsonText)")
            let published = try await room.request(["type": "publish", "instance": .number(Double(main)), "name": "mine"])
            #expect(published["code"] == "unknown_instance", "\(published.jsonText)")
            let owner = try await server.connect(token: Self.owner)
            let allowed = try await owner.request([
                "type": "createStateMachine", "file": "demo", "artboard": "Lobby", "name": "vault-2", "main": .number(Double(main)),
            ])
            #expect(allowed["type"] == "target", "read and write on the vault may share its main instance: \(allowed.jsonText)")
        }
    }

    @Test func exposingAnInstanceForWritingNeedsWriteWhereItIs() async throws {
        let (vault, host) = try await Self.daemonWithVault()
        try await stopping(vault) { server in
            let reader = try await server.connect(token: Self.reader)
            let refused = try await reader.request([
                "type": "listAppend", "target": "lobby", "path": "players", "instance": .number(Double(host)),
            ])
            #expect(refused["code"] == "unknown_instance", "read on the vault is not enough to make its host writable: \(refused.jsonText)")
            let owner = try await server.connect(token: Self.owner)
            let appended = try await owner.request([
                "type": "listAppend", "target": "lobby", "path": "players", "instance": .number(Double(host)),
            ])
            #expect(appended["type"] == "ack", "\(appended.jsonText)")
            let name = try await owner.request(["type": "get", "target": "lobby", "path": "players/0/name"])
            #expect(name["value"] == "secret")
        }
    }

    @Test func aSameTargetInstanceOutsideTheScopeCannotBeMovedIntoIt() async throws {
        try await withInProcessAuthDaemon(auth: [], tokens: Self.tokens) { server in
            let admin = try await server.connect(token: Self.admin)
            let host = try #require(
                try await admin.request(["type": "get", "target": "lobby", "path": "host"])["value"]?["instance"]?.intValue)
            let room = try await server.connect(token: Self.room)
            let appended = try await room.request([
                "type": "listAppend", "target": "lobby", "path": "players", "instance": .number(Double(host)),
            ])
            #expect(appended["code"] == "unknown_instance", "the lobby's host is outside 'players': \(appended.jsonText)")
        }
    }

    @Test func errorsToAWriteOnlyTokenCarryNoState() async throws {
        try await withInProcessAuthDaemon(auth: [], tokens: Self.tokens) { server in
            let writer = try await server.connect(token: Self.writeOnly)
            let mismatch = try await writer.request(["type": "set", "target": "lobby", "path": "title", "value": 5])
            #expect(mismatch["code"] == "type_mismatch")
            #expect(
                mismatch["details"] == ["path": "title"] && !(mismatch["message"]?.stringValue ?? "").contains("string"),
                "\(mismatch.jsonText)"
            )
            let outside = try await writer.request(["type": "listRemoveAt", "target": "lobby", "path": "players", "index": 7])
            #expect(outside["code"] == "index_out_of_range")
            #expect(
                outside["details"] == ["path": "players"] && !(outside["message"]?.stringValue ?? "").contains("0..<"),
                "\(outside.jsonText)")
            // Errors found when the advance applies the command are stripped too: two removals of
            // the only player in one advance (or the second one checked after the first applied).
            let admin = try await server.connect(token: Self.admin)
            let player = try await admin.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
            let added = try await admin.request([
                "type": "listAppend", "target": "lobby", "path": "players", "instance": player["instance"] ?? .null,
            ])
            try #require(added["type"] == "ack")
            writer.send(["type": "listRemoveAt", "id": 100, "target": "lobby", "path": "players", "index": 0])
            writer.send(["type": "listRemoveAt", "id": 101, "target": "lobby", "path": "players", "index": 0])
            let first = try await writer.next(where: { $0["id"] == 100 }, what: "the first removal's reply")
            let second = try await writer.next(where: { $0["id"] == 101 }, what: "the second removal's reply")
            #expect(first["type"] == "ack", "\(first.jsonText)")
            #expect(second["code"] == "index_out_of_range", "\(second.jsonText)")
            #expect(second["details"]?["count"] == nil && second["details"]?["index"] == nil, "\(second.jsonText)")
            let forAdmin = try await admin.request(["type": "listRemoveAt", "target": "lobby", "path": "players", "index": 7])
            #expect(forAdmin["details"]?["count"] == 0, "a reader still gets the details: \(forAdmin.jsonText)")
        }
    }

    @Test func describeShowsAuthoredValuesOnlyToCreators() async throws {
        try await withInProcessAuthDaemon(auth: [], tokens: Self.tokens) { server in
            func lightTheme(_ token: String) async throws -> JSONValue? {
                let schema = try await server.connect(token: token).request(["type": "describe", "file": "demo"])
                let theme = schema["schema"]?["viewModels"]?.arrayValue?.first { $0["name"] == "Theme" }
                return theme?["instances"]?.arrayValue?.first { $0["name"] == "Light" }
            }
            let forWriter = try #require(try await lightTheme(Self.writeOnly))
            #expect(forWriter == ["name": "Light"], "\(forWriter.jsonText)")
            let forRoom = try #require(try await lightTheme(Self.room))
            #expect(forRoom["values"]?["name"] == "Light", "\(forRoom.jsonText)")
        }
    }

    @Test func anEmptyOriginHeaderIsAnOriginNotItsAbsence() async throws {
        try await withAuthDaemon(auth: [("allowedOrigins", ["https://app.example"])], tokens: Self.tokens) { server in
            let port = server.daemon.port
            func hello(headers: String) async -> String {
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread {
                        do {
                            let socket = try RawSocket.webSocket(port: port, headers: headers)
                            try socket.send(text: AuthDaemon.hello(Self.admin).jsonText)
                            let reply = try JSONParser().parse(try socket.readMessage())
                            continuation.resume(returning: reply["type"]?.stringValue ?? reply.jsonText)
                        } catch RawSocket.Failure.closed(let code) {
                            continuation.resume(returning: "closed \(code.map(String.init) ?? "-")")
                        } catch {
                            continuation.resume(returning: "failed \(error)")
                        }
                    }
                }
            }
            #expect(await hello(headers: "Origin: \r\n") == "closed 1008")
            #expect(await hello(headers: "") == "welcome", "no Origin header at all is still a non-browser client")
            #expect(await hello(headers: "Origin: https://app.example\r\n") == "welcome")
            let library = try await server.connect(token: Self.admin)
            #expect(try await library.request(["type": "ping"])["type"] == "pong", "the Swift transport sends no Origin of its own")
        }
    }
}
