import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import Testing

/// The journal keeps each applied command's author and transaction (PROTOCOL.md §16, §17);
/// records written before either existed still read back.
@Suite struct JournalAuthorsTests {
    static func roundTrip(_ record: JournalRecord) throws -> JournalRecord {
        let text = JSONValue.object(record.members).jsonText
        return try JournalRecord(json: try JSONParser().parse(Array(text.utf8)), file: "demo", format: JournalRecord.format)
    }

    @Test func authorsAndTransactionsSurviveTheJournal() throws {
        let commands: QueuedCommands = [
            QueuedCommand(id: 7, command: .set(path: "mood", value: .number(2)), author: Author(client: "inspector/2.1", token: "qa")),
            QueuedCommand(id: 8, command: .fire(path: "jump"), author: Author(client: nil, token: "qa"), transaction: 8),
            QueuedCommand(
                id: 9, command: .listRemoveAt(path: "players", index: 0), author: Author(client: nil, token: nil), transaction: 8),
            QueuedCommand(id: 10, command: .fire(path: "jump")),
        ]
        let record = JournalRecord.advance(target: "character", commands: commands)
        #expect(try Self.roundTrip(record) == record)
    }

    /// Format 3 added authors and transactions (4: elapsed, 5: Rive's blank instances and
    /// inputs); a journal of format 2 reads unchanged (its creations are typed records, not the
    /// first format's wire requests).
    @Test func aRecordOfFormatTwoReadsUnchanged() throws {
        #expect(JournalRecord.format == 5)
        let record = JournalRecord.publish(instance: InstanceID(5), name: "theme")
        let line = JSONValue.object(record.members).jsonText
        #expect(try JournalRecord(json: try JSONParser().parse(Array(line.utf8)), file: "demo", format: 2) == record)
    }

    @Test func aRecordWithoutAuthorsReadsBackWithout() throws {
        let line = #"{"t": "advance", "target": "character", "commands": [{"n": 3, "c": {"op": "fire", "path": "jump"}}]}"#
        let record = try JournalRecord(json: try JSONParser().parse(Array(line.utf8)), file: "demo", format: JournalRecord.format)
        #expect(record == .advance(target: "character", commands: [QueuedCommand(id: 3, command: .fire(path: "jump"))]))
    }

    @Test(arguments: [
        #"{"n": 3, "c": {"op": "fire", "path": "jump"}, "a": {"client": 5}}"#,
        #"{"n": 3, "c": {"op": "fire", "path": "jump"}, "a": {"name": "x"}}"#,
        #"{"n": 3, "c": {"op": "fire", "path": "jump"}, "a": "qa"}"#,
        #"{"n": 3, "c": {"op": "fire", "path": "jump"}, "x": 4}"#,
        #"{"n": 3, "c": {"op": "fire", "path": "jump"}, "x": "3"}"#,
    ])
    func aMalformedAuthorOrTransactionIsRefused(command: String) throws {
        let line = #"{"t": "advance", "target": "character", "commands": ["# + command + "]}"
        let json = try JSONParser().parse(Array(line.utf8))
        #expect(throws: JournalCodec.Invalid.self) { try JournalRecord(json: json, file: "demo", format: JournalRecord.format) }
    }
}
