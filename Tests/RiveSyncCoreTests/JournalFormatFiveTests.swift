import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// Journal format 5: creations say they make blank instances as Rive does (`nestedBlanks`), a
/// state machine may be made with empty slots (`bindDefaults`), and advances may set and fire
/// state machine inputs. Records of earlier formats read with the rule they ran with.
@Suite struct JournalFormatFiveTests {
    static func read(_ line: String, format: Int = JournalRecord.format) throws -> JournalRecord {
        try JournalRecord(json: try JSONParser().parse(Array(line.utf8)), file: "demo", format: format)
    }

    static func roundTrip(_ record: JournalRecord) throws -> JournalRecord {
        try read(JSONValue.object(record.members).jsonText)
    }

    @Test func creationsOfFormatFiveSayTheyMakeRivesBlankInstances() throws {
        let instance = JournalRecord.createInstance(.blank(from: .name("Lobby")))
        #expect(JSONValue.object(instance.members).jsonText.contains(#""nestedBlanks":true"#))
        #expect(try Self.roundTrip(instance) == instance)
        let machine = JournalRecord.createStateMachine(
            StateMachineRequest(file: "demo", name: "room", artboard: "Lobby", stateMachine: "lobby", rate: 60, bindDefaults: false))
        let text = JSONValue.object(machine.members).jsonText
        #expect(text.contains(#""bindDefaults":false"#) && text.contains(#""nestedBlanks":true"#))
        #expect(try Self.roundTrip(machine) == machine)
        #expect(instance.earliestFormat == 5 && machine.earliestFormat == 5)
    }

    /// A creation written before format 5 has no `nestedBlanks`: it replays as it ran, its
    /// blank instances' nested view-model properties null; a state machine binds defaults.
    @Test func aCreationOfAnEarlierFormatReadsWithTheRuleItRanWith() throws {
        let instance = try Self.read(#"{"t": "createInstance", "source": {"blank": {"viewModel": "Lobby"}}}"#, format: 4)
        #expect(instance == .createInstance(.blank(from: .name("Lobby")), nested: .null))
        #expect(instance.earliestFormat == 2)
        let machine = try Self.read(
            #"{"t": "createStateMachine", "name": "room", "artboard": "Lobby", "stateMachine": "lobby", "main": null, "globals": [], "manual": false, "rate": 60}"#,
            format: 4)
        guard case .createStateMachine(let request, let nested) = machine else {
            Issue.record("read as \(machine)")
            return
        }
        #expect(request.bindDefaults && nested == .null)
        let legacy = try Self.read(
            #"{"t": "createInstance", "request": {"type": "createInstance", "file": "demo", "source": {"blank": {"viewModel": "Lobby"}}}}"#,
            format: 1)
        #expect(legacy == .createInstance(.blank(from: .name("Lobby")), nested: .null))
    }

    @Test func inputCommandsSurviveTheJournal() throws {
        let record = JournalRecord.advance(
            target: "character",
            commands: [
                QueuedCommand(id: 3, command: .setInput(name: "level", value: .number(2.5))),
                QueuedCommand(id: 4, command: .setInput(name: "on", value: .boolean(true))),
                QueuedCommand(id: 5, command: .fireInput(name: "jump")),
            ])
        #expect(try Self.roundTrip(record) == record)
        #expect(record.earliestFormat == 5)
        #expect(JournalRecord.advance(target: "character", commands: [], elapsed: 0.5).earliestFormat == 4)
        #expect(JournalRecord.advance(target: "character", commands: []).earliestFormat == 2)
    }

    @Test func bindTargetCommandsSurviveTheJournal() throws {
        let record = JournalRecord.advance(
            target: "twoway",
            commands: [
                QueuedCommand(id: 6, command: .setBindTarget(bind: 0, value: .number(700))),
                QueuedCommand(id: 7, command: .setBindTarget(bind: 2, value: .color(0xFF00_8000))),
                QueuedCommand(id: 8, command: .setBindTarget(bind: 3, value: .string("typed"))),
            ], elapsed: 0.016)
        #expect(JSONValue.object(record.members).jsonText.contains(#""op":"setBindTarget","bind":0"#))
        #expect(try Self.roundTrip(record) == record)
        #expect(record.earliestFormat == 5, "a format-5 daemon that does not know the op refuses the record")
        let withoutBind =
            #"{"t": "advance", "target": "twoway", "commands": [{"n": 1, "c": {"op": "setBindTarget", "value": {"number": 1}}}]}"#
        #expect(throws: JournalCodec.Invalid.self) { try Self.read(withoutBind) }
    }

    @Test(arguments: ["false", "1", #""yes""#, "null"])
    func aMalformedNestedBlanksIsRefused(value: String) throws {
        let line = #"{"t": "createInstance", "source": {"blank": {"viewModel": "Lobby"}}, "nestedBlanks": "# + value + "}"
        #expect(throws: JournalCodec.Invalid.self) { try Self.read(line) }
    }
}
