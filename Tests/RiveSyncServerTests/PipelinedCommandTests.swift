import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Commands sent one after another without waiting are checked against the state they will
/// apply to, not the state before the commands queued ahead of them (issue 11): an insert and
/// then a swap of the new index, pipelined into one advance, both apply (the whole daemon
/// in-process).
@Suite struct PipelinedCommandTests {
    @Test func aSwapOfAnIndexInsertedJustBeforeItApplies() async throws {
        try await withInProcessDaemon(["--demo"]) { daemon in
            let client = try await daemon.connected()
            let room = try await client.request([
                "type": "createStateMachine", "file": "demo", "name": "room", "artboard": "Lobby", "mode": "manual",
            ])
            try #require(room["type"] == "target", "\(room.jsonText)")
            var players: [JSONValue] = []
            for _ in 0..<2 {
                let player = try await client.request([
                    "type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]],
                ])
                players.append(try #require(player["instance"], "\(player.jsonText)"))
            }
            client.send(["type": "listAppend", "id": 1, "target": "room", "path": "players", "instance": players[0]])
            client.send(["type": "listInsert", "id": 2, "target": "room", "path": "players", "index": 1, "instance": players[1]])
            client.send(["type": "listSwap", "id": 3, "target": "room", "path": "players", "index": 0, "with": 1])
            // A command that is still wrong after the ones before it fails when applied, with the seq.
            client.send(["type": "listRemoveAt", "id": 4, "target": "room", "path": "players", "index": 5])
            let advanced = try await client.request(["type": "advance", "target": "room"])
            #expect(advanced["type"] == "advanced", "\(advanced.jsonText)")
            for id in 1...3 {
                let reply = try await client.next(where: { $0["id"] == .number(Double(id)) }, what: "the reply to command \(id)")
                #expect(reply["type"] == "ack", "command \(id): \(reply.jsonText)")
            }
            let late = try await client.next(where: { $0["id"] == 4 }, what: "the reply to the removal")
            #expect(late["code"] == "index_out_of_range" && late["details"]?["seq"] != nil, "\(late.jsonText)")
            let list = try await client.request(["type": "get", "target": "room", "path": "players"])
            #expect(list["value"] == .array([players[1], players[0]]), "the swap applied: \(list.jsonText)")
        }
    }
}
