import RiveFile
import RiveSyncModel
import Testing

/// A nested artboard's state machine through a restart: in `data_binding_test_triggers.riv`
/// (artboard `root`) the nested artboard's timeline reports an event at 0.7 s, which the
/// root's listener turns into a view-model trigger one frame later (trace `triggers_by_events`).
@Suite struct NestedStateMachineRestartTests {
    @Test func aNestedStateMachineGoesOnAfterARestart() throws {
        let schema = try RiveFileReader.read([UInt8](ConverterFixtures.contents("riv/data_binding_test_triggers.riv")))
        var runtime = FileRuntime(schema: schema)
        let main = try runtime.createInstance(.blank(from: .name("vm_root")))
        try runtime.createStateMachine(named: "sm", artboard: "root", main: main)
        _ = try runtime.advance("sm", elapsed: 0)
        _ = try runtime.advance("sm", elapsed: 0.7)
        var restored = FileRuntime(schema: schema, restoring: runtime.persistentState)
        #expect(restored.persistentState == runtime.persistentState)
        let before = try runtime.advance("sm", elapsed: 0.1)
        let after = try restored.advance("sm", elapsed: 0.1)
        #expect(Self.stateMachineFires(before) == 1, "the nested artboard's event fires the trigger")
        #expect(Self.stateMachineFires(after) == 1, "and does so after a restart too")
        #expect(restored.layerStates("sm") == runtime.layerStates("sm"))
        #expect(restored.persistentState == runtime.persistentState)
    }

    private static func stateMachineFires(_ batches: [ChangeBatch]) -> Int {
        batches.flatMap(\.effects).filter { effect in
            guard case .fire = effect.change else { return false }
            return effect.origin == .stateMachine
        }.count
    }
}
