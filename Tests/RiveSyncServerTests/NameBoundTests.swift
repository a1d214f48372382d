import Foundation
import RiveSyncCore
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// `maxNameBytes` (PROTOCOL.md §12): strings a client chooses that the daemon copies to others
/// are at most 256 UTF-8 bytes, so a hostile client cannot inflate batches or journal records
/// (the whole daemon in-process, with its file journals).
@Suite struct NameBoundTests {
    static let tooLong = String(repeating: "é", count: 129)  // 258 bytes, 129 characters
    static let longest = String(repeating: "n", count: ClientStrings.maxBytes)

    static func expectRefused(_ reply: JSONValue, field: String) {
        #expect(reply["type"] == "error" && reply["code"] == "limit_exceeded", "\(reply.jsonText)")
        #expect(reply["details"]?["limit"] == "maxNameBytes" && reply["details"]?["field"]?.stringValue == field, "\(reply.jsonText)")
        #expect(reply["details"]?["value"]?.intValue == 256, "\(reply.jsonText)")
    }

    /// The longest `client` allowed, on the longest transaction: its batch and journal record
    /// stay within maxTransactionCommands × (maxNameBytes + a few bytes) of authors; a longer
    /// `client` is refused at `hello`, and so are longer names of new targets, files and media types.
    @Test func aHostileClientCannotInflateBatchesOrRecords() async throws {
        let state = NSTemporaryDirectory() + "rivesync-names-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: state) }
        try await withInProcessDaemon(["--demo", "--state-dir", state]) { daemon in
            let client = daemon.connect()
            Self.expectRefused(
                try await client.request(["type": "hello", "protocol": [1], "client": .string(Self.tooLong)]), field: "client")
            let welcome = try await client.request(["type": "hello", "protocol": [1], "client": .string(Self.longest)])
            #expect(welcome["type"] == "welcome", "the connection may say hello again with a client within the bound: \(welcome.jsonText)")
            #expect(try await client.request(["type": "subscribe", "target": "lobby"])["type"] == "snapshot")

            let commands = (0..<256).map { JSONValue.object([("type", "set"), ("path", "title"), ("value", .string("t\($0)"))]) }
            let applied = try await client.request(["type": "transaction", "target": "lobby", "commands": .array(commands)])
            #expect(applied["type"] == "ack", "\(applied.jsonText)")
            let batch = try await client.nextBatch("lobby")
            let authors = try #require(batch["authors"]?.arrayValue)
            #expect(authors.count == batch["commands"]?.arrayValue?.count, "one author per command number")
            #expect(authors.allSatisfy { $0["client"]?.stringValue == Self.longest })
            // The bound: authors cost at most maxTransactionCommands × (maxNameBytes + 64) bytes.
            let bound = 256 * (ClientStrings.maxBytes + 64) + 64 * 1024
            #expect(batch.jsonText.utf8.count < bound, "batch of \(batch.jsonText.utf8.count) bytes")
            let record = try Self.longestJournalLine(state)
            #expect(record > 0 && record < bound, "journal record of \(record) bytes")
            print("longest client (256 B) on a 256-command transaction: batch \(batch.jsonText.utf8.count) B, journal record \(record) B")

            let machine: JSONValue = ["type": "createStateMachine", "file": "demo", "name": .string(Self.tooLong), "artboard": "Lobby"]
            Self.expectRefused(try await client.request(machine), field: "name")
            let created = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Theme"]]])
            let instance = try #require(created["instance"], "\(created.jsonText)")
            let publishing: JSONValue = [
                "type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Theme"]], "publish": .string(Self.tooLong),
            ]
            Self.expectRefused(try await client.request(publishing), field: "publish")
            Self.expectRefused(
                try await client.request(["type": "publish", "instance": instance, "name": .string(Self.tooLong)]), field: "name")
            let upload: JSONValue = ["type": "upload", "kind": "blob", "data": "AAEC", "mediaType": .string(Self.tooLong)]
            Self.expectRefused(try await client.request(upload), field: "mediaType")
            let inTransaction: JSONValue = [
                "type": "transaction", "target": "lobby", "commands": [["type": "set", "path": "title", "value": "x"]],
            ]
            #expect(try await client.request(inTransaction)["type"] == "ack", "other strings are bounded by their own limits")
            Self.expectRefused(try await client.request(["type": "loadFile", "name": .string(Self.tooLong), "schema": [:]]), field: "name")
            let listing = try await client.request(["type": "listTargets"])
            let names = try #require(listing["targets"]?.arrayValue).compactMap { $0["name"]?.stringValue ?? $0["target"]?.stringValue }
            #expect(!names.isEmpty && names.allSatisfy { $0.utf8.count <= ClientStrings.maxBytes }, "nothing was created: \(names)")
        }
    }

    /// The longest line of any file under `directory` (journal records are one line each).
    static func longestJournalLine(_ directory: String) throws -> Int {
        let files = try #require(FileManager.default.subpaths(atPath: directory))
        var longest = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: directory + "/" + file) else { continue }
            for line in data.split(separator: UInt8(ascii: "\n")) { longest = max(longest, line.count) }
        }
        return longest
    }
}
