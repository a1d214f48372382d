import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Transactions (PROTOCOL.md §16) through the whole daemon in-process (`InProcessDaemon`): all
/// or none, the failing command's index, each command's own permission, one batch for every
/// subscriber; the replay after a restart through a real `rivesyncd`.
@Suite struct TransactionTests {
    /// A Player instance of the demo file (for list edits and binds).
    static func player(_ client: some RequestingClient) async throws -> Int {
        let created = try await client.request([
            "type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]],
        ])
        return try #require(created["instance"]?.intValue, "createInstance: \(created.jsonText)")
    }

    /// One bad command of each kind, placed after a good `set` of `lobby`'s `title`; `P` stands
    /// for a Player instance that exists but is in no list.
    static let badCommands: [(kind: String, command: String)] = [
        ("set", #"{"type": "set", "path": "title", "value": 5}"#),
        ("fire", #"{"type": "fire", "path": "title"}"#),
        ("listAppend", #"{"type": "listAppend", "path": "players", "instance": 4503599627370495}"#),
        ("listInsert", #"{"type": "listInsert", "path": "players", "index": 3, "instance": P}"#),
        ("listRemoveAt", #"{"type": "listRemoveAt", "path": "players", "index": 0}"#),
        ("listRemove", #"{"type": "listRemove", "path": "players", "instance": 4503599627370495}"#),
        ("listSwap", #"{"type": "listSwap", "path": "players", "index": 0, "with": 1}"#),
        ("bind", #"{"type": "bind", "globals": [{"name": "Player", "instance": P}]}"#),
    ]

    @Test(arguments: badCommands.map(\.kind))
    func aTransactionWithOneBadCommandAppliesNothing(kind: String) async throws {
        try await withInProcessMultiplayerDaemon() { daemon in
            let writer = try await daemon.connect()
            let watcher = try await daemon.connect()
            #expect(try await watcher.request(["type": "subscribe", "target": "lobby"])["type"] == "snapshot")
            let player = try await Self.player(writer)
            let bad = Self.badCommands.first { $0.kind == kind }!.command.replacingOccurrences(of: "P", with: "\(player)")
            let request = try JSONParser().parse(
                #"{"type": "transaction", "target": "lobby", "commands": [{"type": "set", "path": "title", "value": "Changed"}, "#
                    + bad + "]}")
            let reply = try await writer.request(request)
            #expect(reply["type"] == "error", "\(kind): \(reply.jsonText)")
            #expect(reply["details"]?["commandIndex"] == 1, "\(kind): \(reply.jsonText)")
            #expect(reply["code"]?.stringValue != "bad_message", "\(kind): a well-formed command fails on the state: \(reply.jsonText)")

            let title = try await writer.request(["type": "get", "target": "lobby", "path": "title"])
            #expect(title["value"] == "Preview lobby", "\(kind): the good command before it did not apply")
            // The next batch is the one of the set after it: the transaction made none.
            let after = try await writer.request(["type": "set", "target": "lobby", "path": "title", "value": "After"])
            #expect(after["type"] == "ack")
            let batch = try await watcher.nextBatch("lobby")
            let number = try #require(after["command"])
            #expect(batch["seq"] == 1 && batch["commands"] == .array([number]), "\(kind): \(batch.jsonText)")
            #expect(batch["effects"]?.arrayValue?.first?["value"] == "After")
        }
    }

    @Test func eachCommandIsCheckedInTheStateTheOnesBeforeItLeave() async throws {
        try await withInProcessMultiplayerDaemon() { daemon in
            let client = try await daemon.connect()
            #expect(try await client.request(["type": "subscribe", "target": "lobby"])["type"] == "snapshot")
            let (first, second) = (try await Self.player(client), try await Self.player(client))
            let ack = try await client.request([
                "type": "transaction", "target": "lobby",
                "commands": [
                    ["type": "listAppend", "path": "players", "instance": .number(Double(first))],
                    ["type": "listAppend", "path": "players", "instance": .number(Double(second))],
                    ["type": "listSwap", "path": "players", "index": 0, "with": 1],
                    ["type": "set", "path": "players/0/name", "value": "Bo"],
                    ["type": "listRemoveAt", "path": "players", "index": 1],
                ],
            ])
            #expect(ack["type"] == "ack", "\(ack.jsonText)")
            let numbers = try #require(ack["commands"]?.arrayValue?.compactMap { $0.intValue })
            #expect(numbers.count == 5 && ack["command"]?.intValue == numbers.first)
            #expect(numbers == Array(numbers[0]..<numbers[0] + 5), "consecutive command numbers")
            let batch = try await client.nextBatch("lobby")
            #expect(batch["seq"] == ack["seq"] && batch["commands"] == ack["commands"], "one batch: \(batch.jsonText)")
            #expect(try await client.request(["type": "get", "target": "lobby", "path": "players"])["value"] == [.number(Double(second))])
            #expect(try await client.request(["type": "get", "target": "lobby", "path": "players/0/name"])["value"] == "Bo")
        }
    }

    @Test func aThemeSwitchReachesEverySubscriberInOneBatch() async throws {
        try await withInProcessMultiplayerDaemon() { daemon in
            let writer = try await daemon.connect(client: "theme-switcher")
            var watchers: [InProcessClient] = []
            for _ in 0..<2 {
                let watcher = try await daemon.connect(token: MultiplayerDaemon.kiosk)
                #expect(try await watcher.request(["type": "subscribe", "target": "theme"])["type"] == "snapshot")
                watchers.append(watcher)
            }
            let character = try await daemon.connect(token: MultiplayerDaemon.kiosk)
            #expect(try await character.request(["type": "subscribe", "target": "character", "paths": ["@Theme"]])["type"] == "snapshot")
            let ack = try await writer.request([
                "type": "transaction", "target": "theme",
                "commands": [
                    ["type": "set", "path": "name", "value": "Dark"], ["type": "set", "path": "background", "value": "#FF121212"],
                    ["type": "set", "path": "foreground", "value": "#FFF2F2F2"],
                ],
            ])
            #expect(ack["type"] == "ack" && ack["commands"]?.arrayValue?.count == 3, "\(ack.jsonText)")
            let author: JSONValue = ["client": "theme-switcher", "token": "qa"]
            for watcher in watchers {
                let batch = try await watcher.nextBatch("theme")
                #expect(batch["seq"] == 1 && batch["commands"] == ack["commands"], "\(batch.jsonText)")
                #expect(
                    batch["effects"]?.arrayValue?.compactMap { $0["paths"]?.arrayValue?.first?.stringValue } == [
                        "name", "background", "foreground",
                    ])
                #expect(batch["authors"] == [author, author, author])
            }
            let shared = try await character.nextBatch("character")
            #expect(
                shared["effects"]?.arrayValue?.compactMap { $0["paths"]?.arrayValue?.first?.stringValue } == [
                    "@Theme/name", "@Theme/background", "@Theme/foreground",
                ],
                "the state machine that binds the theme sees all three in one batch: \(shared.jsonText)")
            #expect(shared["commands"] == [] && shared["authors"] == [])
        }
    }

    @Test func aForbiddenCommandFailsTheWholeTransaction() async throws {
        try await withInProcessMultiplayerDaemon() { daemon in
            let kiosk = try await daemon.connect(token: MultiplayerDaemon.kiosk)
            let reply = try await kiosk.request([
                "type": "transaction", "target": "lobby",
                "commands": [["type": "set", "path": "title", "value": "Kiosk"], ["type": "set", "path": "host/name", "value": "x"]],
            ])
            #expect(reply["code"] == "forbidden", "\(reply.jsonText)")
            #expect(
                reply["details"]?["commandIndex"] == 1 && reply["details"]?["path"] == "host/name" && reply["details"]?["scope"] == "write")
            #expect(try await kiosk.request(["type": "get", "target": "lobby", "path": "title"])["value"] == "Preview lobby")
            let allowed = try await kiosk.request([
                "type": "transaction", "target": "lobby", "commands": [["type": "set", "path": "title", "value": "Kiosk"]],
            ])
            #expect(allowed["type"] == "ack", "the same command alone is allowed: \(allowed.jsonText)")
        }
    }

    @Test func shapeErrorsAndTheLimitNameTheCommand() async throws {
        try await withInProcessMultiplayerDaemon() { daemon in
            let client = daemon.daemon.connect()
            let welcome = try await client.request(["type": "hello", "protocol": [1], "token": .string(MultiplayerDaemon.qa)])
            #expect(welcome["limits"]?["maxTransactionCommands"] == 256, "\(welcome.jsonText)")
            let shape = try await client.request([
                "type": "transaction", "target": "character",
                "commands": [["type": "fire", "path": "success"], ["type": "set", "path": "mood"]],
            ])
            #expect(shape["code"] == "bad_message" && shape["details"]?["field"] == "commands[1].value", "\(shape.jsonText)")
            #expect(shape["details"]?["commandIndex"] == 1)
            let many = try await client.request([
                "type": "transaction", "target": "character",
                "commands": .array(Array(repeating: ["type": "fire", "path": "success"], count: 257)),
            ])
            #expect(many["code"] == "limit_exceeded" && many["details"]?["limit"] == "maxTransactionCommands", "\(many.jsonText)")
            let unknown = try await client.request([
                "type": "transaction", "target": "nowhere", "commands": [["type": "fire", "path": "success"]],
            ])
            #expect(unknown["code"] == "unknown_target", "\(unknown.jsonText)")
        }
    }

    /// A transaction checked while other commands wait fails when it applies (they changed the
    /// state): all of it is undone, and the error carries its index, the seq and the number.
    @Test func aTransactionThatFailsWhenAppliedIsUndone() async throws {
        try await withMultiplayerDaemon(manualLobby: true) { daemon in
            let client = try await daemon.connect()
            let watcher = try await daemon.connect()
            #expect(try await watcher.request(["type": "subscribe", "target": "lobby"])["type"] == "snapshot")
            let player = try await Self.player(client)
            // Queued, not applied: the list is empty until the advance.
            client.send(["type": "listAppend", "id": 1, "target": "lobby", "path": "players", "instance": .number(Double(player))])
            client.send(["type": "listRemoveAt", "id": 2, "target": "lobby", "path": "players", "index": 0])
            client.send([
                "type": "transaction", "id": 3, "target": "lobby",
                "commands": [
                    ["type": "set", "path": "title", "value": "Changed"], ["type": "listRemoveAt", "path": "players", "index": 0],
                ],
            ])
            let advanced = try await client.request(["type": "advance", "target": "lobby"])
            #expect(advanced["type"] == "advanced" && advanced["seq"] == 1, "\(advanced.jsonText)")
            let replies = client.takeAll { [1, 2, 3].contains($0["id"]?.intValue) }
            #expect(replies.map { $0["type"] } == ["ack", "ack", "error"], "\(replies.map(\.jsonText))")
            let failure = try #require(replies.last)
            #expect(failure["details"]?["commandIndex"] == 1 && failure["details"]?["seq"] == 1, "\(failure.jsonText)")
            #expect(failure["details"]?["command"]?.intValue != nil)
            let batch = try await watcher.nextBatch("lobby")
            #expect(batch["commands"]?.arrayValue?.count == 2, "only the two single commands applied: \(batch.jsonText)")
            #expect(batch["effects"]?.arrayValue?.contains { $0["paths"]?.arrayValue?.first == "title" } == false, "\(batch.jsonText)")
            #expect(try await client.request(["type": "get", "target": "lobby", "path": "title"])["value"] == "Preview lobby")

            // The journal replays the advance alike: the transaction undone again, the same batch.
            let epoch = try #require(try await watcher.request(["type": "subscribe", "target": "theme"])["epoch"])
            try await daemon.restarted()
            let later = try await daemon.connect()
            let resumed = try await later.request(["type": "subscribe", "target": "lobby", "cursor": ["epoch": epoch, "seq": 0]])
            #expect(resumed["resumed"] == true, "\(resumed.jsonText)")
            #expect(try await later.nextBatch("lobby") == batch, "the replayed batch is the one sent before the restart")
            #expect(try await later.request(["type": "get", "target": "lobby", "path": "title"])["value"] == "Preview lobby")
            #expect(try await later.request(["type": "get", "target": "lobby", "path": "players"])["value"] == [])
        }
    }
}
