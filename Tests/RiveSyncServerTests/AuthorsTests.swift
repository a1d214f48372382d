import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Authors (PROTOCOL.md §17): each batch says who sent each command it applied (the `hello`
/// `client` and the token's name), the journal keeps them across a restart of a real daemon,
/// and `"authors": false` records and sends none.
@Suite struct AuthorsTests {
    @Test func batchesSayWhoSentEachCommandAndSurviveARestart() async throws {
        try await withMultiplayerDaemon() { daemon in
            let qa = try await daemon.connect(client: "qa-suite/1")
            let kiosk = try await daemon.connect(token: MultiplayerDaemon.kiosk)
            let watcher = try await daemon.connect(token: MultiplayerDaemon.kiosk)
            let subscribed = try await watcher.request(["type": "subscribe", "target": "lobby"])
            let epoch = try #require(subscribed["epoch"])
            let qaAuthor: JSONValue = ["client": "qa-suite/1", "token": "qa"]
            #expect(try await kiosk.request(["type": "set", "target": "lobby", "path": "title", "value": "Kiosk"])["type"] == "ack")
            #expect(try await watcher.nextBatch("lobby")["authors"] == [["token": "kiosk"]], "no client given: only the token")
            // Past snapshotEvery (10), so the restart reads a snapshot's history and later records.
            for round in 1...11 {
                let ack = try await qa.request(["type": "set", "target": "lobby", "path": "title", "value": .string("QA \(round)")])
                #expect(ack["type"] == "ack", "\(ack.jsonText)")
                #expect(try await watcher.nextBatch("lobby")["authors"] == [qaAuthor])
            }
            #expect(try daemon.journalText().contains("qa-suite/1"), "the journal keeps the authors")

            try await daemon.restarted()
            let later = try await daemon.connect(token: MultiplayerDaemon.kiosk)
            let resumed = try await later.request(["type": "subscribe", "target": "lobby", "cursor": ["epoch": epoch, "seq": 0]])
            #expect(resumed["resumed"] == true, "\(resumed.jsonText)")
            var authors: [JSONValue] = []
            for seq in 1...12 {
                let batch = try await later.nextBatch("lobby")
                #expect(batch["seq"]?.intValue == seq)
                authors.append(try #require(batch["authors"], "batch \(seq) after the restart: \(batch.jsonText)"))
            }
            #expect(authors == [[["token": "kiosk"]]] + Array(repeating: [qaAuthor], count: 11))
        }
    }

    /// In-process, its journal files in a state directory of the test's.
    @Test func authorsOffRecordsAndSendsNone() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try await withInProcessMultiplayerDaemon(extra: [("authors", false), ("stateDirectory", .string(state))]) { daemon in
            let qa = try await daemon.connect(client: "qa-suite/1")
            #expect(try await qa.request(["type": "subscribe", "target": "theme"])["type"] == "snapshot")
            let ack = try await qa.request([
                "type": "transaction", "target": "theme",
                "commands": [["type": "set", "path": "name", "value": "Off"], ["type": "fire", "path": "name"]],
            ])
            #expect(ack["code"] == "type_mismatch" && ack["details"]?["commandIndex"] == 1, "\(ack.jsonText)")
            #expect(try await qa.request(["type": "set", "target": "theme", "path": "name", "value": "Off"])["type"] == "ack")
            let batch = try await qa.nextBatch("theme")
            #expect(batch["commands"]?.arrayValue?.count == 1 && batch["authors"] == nil, "\(batch.jsonText)")
            let journal = try MultiplayerDaemon.journalText(in: state)
            #expect(journal.contains("Off"), "the journal has the set")
            #expect(!journal.contains("qa-suite/1"), "the journal keeps no authors")
        }
    }
}
