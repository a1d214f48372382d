import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import Testing

/// An advance record keeps the seconds its state machine ran (journal format 4), so a replay
/// runs the same time; records written before it ran none.
@Suite struct JournalElapsedTests {
    static func read(_ line: String, format: Int = JournalRecord.format) throws -> JournalRecord {
        try JournalRecord(json: try JSONParser().parse(Array(line.utf8)), file: "demo", format: format)
    }

    @Test func elapsedSurvivesTheJournal() throws {
        let record = JournalRecord.advance(
            target: "character", commands: [QueuedCommand(id: 4, command: .fire(path: "jump"))], elapsed: 0.7)
        let line = JSONValue.object(record.members).jsonText
        #expect(line.contains(#""elapsed":0.7"#), "written as seconds")
        #expect(try Self.read(line) == record)
        let timeOnly = JournalRecord.advance(target: "character", commands: [], elapsed: 1.0 / 60)
        #expect(try Self.read(JSONValue.object(timeOnly.members).jsonText) == timeOnly, "an advance of time alone, exact")
    }

    @Test func anUntimedAdvanceIsWrittenAsBefore() throws {
        let record = JournalRecord.advance(target: "character", commands: [QueuedCommand(id: 4, command: .fire(path: "jump"))])
        #expect(!JSONValue.object(record.members).jsonText.contains("elapsed"))
    }

    /// Records of format 3 (and earlier) have no `elapsed`: they read as advances of 0 s.
    @Test func aRecordOfFormatThreeReadsAsUntimed() throws {
        let line = #"{"t": "advance", "target": "character", "commands": [{"n": 3, "c": {"op": "fire", "path": "jump"}}]}"#
        for format in 1...3 {
            let record = try Self.read(line, format: format)
            guard case .advance(_, let commands, let elapsed) = record else {
                Issue.record("format \(format): read as \(record)")
                continue
            }
            #expect(elapsed == 0)
            #expect(commands.count == 1)
        }
    }

    @Test(arguments: [#""0.5""#, "-1", "null", "true"])
    func aMalformedElapsedIsRefused(value: String) throws {
        let line = #"{"t": "advance", "target": "character", "commands": [], "elapsed": "# + value + "}"
        #expect(throws: JournalCodec.Invalid.self) { try Self.read(line) }
    }
}
