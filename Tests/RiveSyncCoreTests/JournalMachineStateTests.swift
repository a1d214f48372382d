import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import Testing

/// A snapshot keeps each running state machine's own state (`machineState`, the evaluator's
/// JSON) beside the target's name, bindings and seq; snapshots written before it have none.
@Suite struct JournalMachineStateTests {
    static let state = FileRuntimeState(
        nextInstanceID: 3, instances: [],
        targets: [
            FileRuntimeState.TargetState(
                name: "stage", kind: .stateMachine(artboard: "Stage", stateMachine: "Main"), bindings: [], seq: 4,
                stateMachine: ["layers": [["state": 3, "mix": 1]], "inputs": []]),
            FileRuntimeState.TargetState(name: "room", kind: .publishedInstance, bindings: [], seq: 2),
        ])

    @Test func aRunningStateMachinesStateSurvivesTheSnapshot() throws {
        let json = JournalCodec.encode(Self.state)
        let text = json.jsonText
        #expect(text.contains(#""stateMachine":"Main""#), "the state machine's name keeps its member")
        #expect(text.contains(#""machineState":{"layers""#))
        let decoded = try JournalCodec.decodeState(try JSONParser().parse(Array(text.utf8)), schema: WorkerDriver.schema)
        #expect(decoded == Self.state)
    }

    @Test func aSnapshotWithoutMachineStateReadsAsNone() throws {
        var old = Self.state
        old.targets[0].stateMachine = nil
        let text = JournalCodec.encode(old).jsonText
        #expect(!text.contains("machineState"))
        #expect(try JournalCodec.decodeState(try JSONParser().parse(Array(text.utf8)), schema: WorkerDriver.schema) == old)
    }

    @Test func aMachineStateThatIsNotAnObjectIsRefused() throws {
        let text = JournalCodec.encode(Self.state).jsonText.replacingOccurrences(
            of: #""machineState":{"layers":[{"state":3,"mix":1}],"inputs":[]}"#, with: #""machineState":7"#)
        #expect(text.contains(#""machineState":7"#))
        #expect(throws: JournalCodec.Invalid.self) {
            try JournalCodec.decodeState(try JSONParser().parse(Array(text.utf8)), schema: WorkerDriver.schema)
        }
    }
}
