import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// The wire forms of PROTOCOL.md §15–17: transactions, presence, authors.
@Suite struct MultiplayerMessageTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(Array(text.utf8)) }

    @Test func aTransactionRoundTripsThroughItsWireForm() throws {
        let transaction = TransactionRequest(
            target: "character",
            commands: [
                .set(target: "character", path: "@Theme/name", value: "Dark"), .fire(target: "character", path: "jump"),
                .listAppend(target: "character", path: "players", instance: InstanceID(12)),
                .listInsert(target: "character", path: "players", index: 0, instance: InstanceID(13)),
                .listRemoveAt(target: "character", path: "players", index: 1),
                .listRemove(target: "character", path: "players", instance: InstanceID(12)),
                .listSwap(target: "character", path: "players", index: 0, with: 1),
                .bind(target: "character", main: nil, globals: [GlobalBinding(name: "Theme", instance: InstanceID(5))]),
            ])
        let wire = transaction.json(id: 9)
        #expect(wire["type"] == "transaction" && wire["id"] == 9)
        #expect(wire["commands"]?.arrayValue?.allSatisfy { $0["target"] == nil } == true, "commands carry no target")
        #expect(try TransactionRequest(try Self.parse(wire.jsonText), maxCommands: 256) == transaction)
    }

    @Test(arguments: [
        (#"{"type": "set", "path": "mood"}"#, "commands[1].value"),
        (#"{"type": "get", "path": "mood"}"#, "commands[1].type"),
        (#"{"type": "transaction", "commands": []}"#, "commands[1].type"),
        (#"{"type": "fire", "path": "jump", "target": "lobby"}"#, "commands[1].target"),
        (#"{"type": "fire", "path": "jump", "id": 3}"#, "commands[1].id"),
        (#"{"type": "bind"}"#, "commands[1].main"),
        (#""fire""#, "commands[1]"),
    ])
    func aBadCommandNamesItsIndexAndField(command: String, field: String) throws {
        let json = try Self.parse(
            #"{"type": "transaction", "target": "character", "commands": [{"type": "fire", "path": "a"}, "# + command + "]}")
        #expect(throws: Never.self) {
            try TransactionRequest(try Self.parse(#"{"target": "t", "commands": [{"type": "fire", "path": "a"}]}"#), maxCommands: 1)
        }
        do {
            _ = try TransactionRequest(json, maxCommands: 256)
            Issue.record("a bad command was read")
        } catch {
            #expect(error.code == .badMessage)
            #expect(JSONValue.object(error.details)["field"] == .string(field))
            #expect(JSONValue.object(error.details)["commandIndex"] == 1)
            #expect(error.message.contains("'\(field)'"), "\(error.message)")
        }
    }

    @Test func aTransactionIsNonEmptyAndBounded() throws {
        #expect(throws: WireError.badField("commands", "a non-empty array of commands")) {
            try TransactionRequest(try Self.parse(#"{"target": "t", "commands": []}"#), maxCommands: 4)
        }
        let three = try Self.parse(
            #"{"target": "t", "commands": [{"type": "fire", "path": "a"}, {"type": "fire", "path": "a"}, {"type": "fire", "path": "a"}]}"#)
        #expect(throws: WireError.limit("maxTransactionCommands", 2)) { try TransactionRequest(three, maxCommands: 2) }
        #expect(try TransactionRequest(three, maxCommands: 3).commands.count == 3)
    }

    @Test(arguments: [
        PresenceRequest.join(target: "room-7", key: "0123456789abcdef", state: ["name": "Ana"]),
        .update(target: "room-7", state: ["cursor": [1, 2]]), .leave(target: "room-7"), .list(target: "room-7"),
    ])
    func presenceRequestsRoundTrip(request: PresenceRequest) throws {
        let wire = Request(id: 3, body: .presence(request)).jsonValue
        #expect(try PresenceRequest(try Self.parse(wire.jsonText)) == request)
        #expect(try ClientRequest(try Self.parse(wire.jsonText)) == .presence(request))
        #expect(PresenceRequest.types.contains(request.type))
    }

    @Test func aPresenceStateMustBeAnObject() throws {
        #expect(throws: WireError.badField("state", "a JSON object")) {
            try PresenceRequest(try Self.parse(#"{"type": "presenceUpdate", "target": "t", "state": [1]}"#))
        }
        #expect(throws: WireError.badField("key", "a string")) {
            try PresenceRequest(try Self.parse(#"{"type": "presenceJoin", "target": "t", "state": {}}"#))
        }
    }

    @Test func presenceMessagesRoundTrip() throws {
        let changes: [PresenceChange] = [
            .join(MemberID(17), state: ["name": "Ana"]), .update(MemberID(9), state: ["cursor": [12, 40]]),
            .leave(MemberID(3), reason: .disconnected), .leave(MemberID(4), reason: .left),
        ]
        let presence = ServerMessage.presence(PresenceMessage(target: "room-7", epoch: "e-1", seq: 42, changes: changes))
        let message = try Self.parse(presence.jsonValue.jsonText)
        #expect(message["type"] == "presence" && message["seq"] == 42 && message["id"] == nil)
        #expect(message["changes"]?.arrayValue?.first?["member"] == "p-17")
        #expect(try ServerMessage(message, types: NoTargetTypes()) == presence)
        let entries = [PresenceEntry(member: MemberID(1), state: ["name": "Bo"])]
        let replies: [ServerMessage] = [
            .presenceMembers(target: "room-7", seq: 0, members: entries, id: 4),
            .presenceJoined(target: "room-7", member: MemberID(17), resumed: true, id: 5),
            .presenceUpdated(target: "room-7", id: 6), .presenceLeft(target: "room-7", id: "seven"),
            .subscribed(ServerMessage.Subscribed(target: "room-7", epoch: "e-1", seq: 3, resumed: true, presence: entries), id: 8),
        ]
        for reply in replies {
            #expect(try ServerMessage(try Self.parse(reply.jsonValue.jsonText), types: NoTargetTypes()) == reply)
        }
        #expect(throws: ServerMessageDecodingError.self) {
            try ServerMessage(
                try Self.parse(#"{"type": "presence", "target": "t", "epoch": "e", "seq": 1, "changes": []}"#), types: NoTargetTypes())
        }
        #expect(throws: ServerMessageDecodingError.self) {
            try ServerMessage(
                try Self.parse(#"{"type": "presenceJoined", "target": "t", "member": "17", "resumed": false}"#), types: NoTargetTypes())
        }
        #expect(throws: WireError.self) { try PresenceMessages.decodeChanges(try Self.parse(#"[{"op": "leave", "member": "p-1"}]"#)) }
        #expect(throws: WireError.self) {
            try PresenceMessages.decodeChanges(try Self.parse(#"[{"op": "join", "member": "x", "state": {}}]"#))
        }
    }

    @Test func presenceErrorsHaveTheirCodes() {
        #expect(WireError(.notJoined, target: "t").code == .notJoined)
        #expect(WireError(.rateLimited(limit: "maxPresenceUpdatesPerSecond"), target: "t").code == .rateLimited)
        #expect(WireError(.limitExceeded(limit: "maxPresenceMembers", value: 2), target: "t") == .limit("maxPresenceMembers", 2))
        #expect(WireError(.invalidKey, target: "t").code == .badMessage)
    }

    @Test func authorsFollowTheBatchsCommands() throws {
        let qa = Author(client: "inspector/2.1", token: "qa")
        let change = ChangeBatch(
            target: "s", seq: 4, effects: [], applied: [7, 8, 9], rejected: [], authors: [7: qa, 9: Author(client: "kiosk", token: nil)])
        let batch = ServerMessage.batch(ServerMessage.Batch(change, epoch: "e", effects: [], withAuthors: true))
        let wire = try Self.parse(batch.jsonValue.jsonText)
        #expect(wire["authors"] == [["client": "inspector/2.1", "token": "qa"], [:], ["client": "kiosk"]])
        #expect(try ServerMessage(wire, types: try ServerMessageTests.types()) == batch)
        let without = ServerMessage.batch(ServerMessage.Batch(change, epoch: "e", effects: []))
        #expect(without.jsonValue["authors"] == nil, "off: no authors member")
        #expect(try ServerMessage(try Self.parse(without.jsonValue.jsonText), types: try ServerMessageTests.types()) == without)
        for bad in [#"[{}]"#, #"[{}, {}, {"name": "x"}]"#, #"[{}, {}, {"client": 3}]"#, #""qa""#] {
            let text =
                #"{"type": "batch", "target": "s", "epoch": "e", "seq": 4, "effects": [], "commands": [7, 8, 9], "authors": "# + bad + "}"
            #expect(throws: ServerMessageDecodingError.self) {
                try ServerMessage(try Self.parse(text), types: try ServerMessageTests.types())
            }
        }
    }

    @Test func aTransactionsAckListsEveryCommand() throws {
        let ack = ServerMessage.ack(ServerMessage.Ack(target: "character", seq: 43, command: 1020, commands: [1020, 1021]), id: 9)
        let wire = try Self.parse(ack.jsonValue.jsonText)
        #expect(wire == ["type": "ack", "id": 9, "target": "character", "seq": 43, "command": 1020, "commands": [1020, 1021]])
        #expect(try ServerMessage(wire, types: NoTargetTypes()) == ack)
        let single = ServerMessage.ack(ServerMessage.Ack(target: "character", seq: 43, command: 1020), id: 9)
        #expect(single.jsonValue["commands"] == nil)
        let mismatched = #"{"type": "ack", "target": "c", "seq": 1, "command": 5, "commands": [6, 7]}"#
        #expect(throws: ServerMessageDecodingError.self) { try ServerMessage(try Self.parse(mismatched), types: NoTargetTypes()) }
    }
}
