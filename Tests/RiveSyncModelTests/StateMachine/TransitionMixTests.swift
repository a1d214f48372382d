import RiveSyncModel
import Testing

/// A transition with a duration mixes the state it leaves out and the new one in, as Rive's
/// layer does (`StateMachineLayerInstance::apply`): the property values both animations key
/// return to what they were when the transition began, the animation left (still playing) is
/// applied at the mix it was left at, then the new one at the layer's mix. Numbers worked out
/// by hand from those semantics.
@Suite struct TransitionMixTests {
    /// View model `V` with number `x`, bound to source from node 1's x. Animation `walk` (a
    /// loop, 10 fps, 10 frames) keys x from 0 to 40 over its second; `stand` keys x at 100.
    /// Layer `L`: entry → `walk` at once, `walk` → `stand` at once with a mix of one second.
    static let schemaJSON = """
        {
          "rivesyncSchema": 1,
          "viewModels": [ { "name": "V", "properties": [ { "name": "x", "type": "number" } ] } ],
          "artboards": [ { "name": "A", "viewModel": "V", "stateMachines": ["sm"], "defaultStateMachine": "sm" } ]
        }
        """

    static func animation(_ name: String, _ frames: [(UInt64, Float)]) -> [RiveObject] {
        [
            RiveObject(typeKey: 31, properties: [55: .bytes(Array(name.utf8)), 56: .uint(10), 57: .uint(10), 59: .uint(1)]),
            RiveObject(typeKey: 25, properties: [51: .uint(1)]),
            RiveObject(typeKey: 26, properties: [53: .uint(13)]),
        ] + frames.map { RiveObject(typeKey: 30, properties: [67: .uint($0.0), 68: .uint(1), 70: .float($0.1)]) }
    }

    /// With `eased`, the mix goes through a cubic ease (artboard object 2) with control points
    /// (1/3, 0) and (2/3, 1): x(t) = t, so the eased mix is 3m² − 2m³.
    static func objects(eased: Bool = false) -> [RiveObject] {
        let mixing: [Int: RiveFieldValue] = eased ? [151: .uint(2), 158: .uint(1000), 350: .uint(2)] : [151: .uint(2), 158: .uint(1000)]
        return [
            RiveObject(typeKey: 1, properties: [4: .bytes(Array("A".utf8))]),
            RiveObject(typeKey: 2, properties: [5: .uint(0), 13: .float(50)]),
            RiveObject(typeKey: 447, properties: [586: .uint(13), 587: .uint(1), 588: .bytes([0, 0])]),
            RiveObject(typeKey: 28, properties: [63: .float(1.0 / 3), 64: .float(0), 65: .float(2.0 / 3), 66: .float(1)]),
        ] + animation("walk", [(0, 0), (10, 40)]) + animation("stand", [(0, 100)])
            + [
                RiveObject(typeKey: 53, properties: [55: .bytes(Array("sm".utf8))]),
                RiveObject(typeKey: 57, properties: [138: .bytes(Array("L".utf8))]),
                RiveObject(typeKey: 63),
                RiveObject(typeKey: 65, properties: [151: .uint(1)]),
                RiveObject(typeKey: 61, properties: [149: .uint(0)]),
                RiveObject(typeKey: 65, properties: mixing),
                RiveObject(typeKey: 61, properties: [149: .uint(1)]),
                RiveObject(typeKey: 62),
            ]
    }

    private func runtime(eased: Bool = false) throws -> FileRuntime {
        var schema = try FileSchema(jsonText: Self.schemaJSON)
        schema.graph = RiveGraph(objects: Self.objects(eased: eased))
        var runtime = FileRuntime(schema: schema)
        try runtime.createStateMachine(artboard: "A", stateMachine: "sm")
        return runtime
    }

    private func x(_ runtime: FileRuntime) throws -> Float? {
        guard case .number(let value) = try runtime.value(at: "x", in: "sm") else { return nil }
        return value
    }

    @Test func theStateLeftPlaysOnAndMixesOutAsTheNewOneMixesIn() throws {
        var runtime = try runtime()
        _ = try runtime.advance("sm", elapsed: 0)
        #expect(runtime.layerStates("sm").map(\.animation) == ["stand"])
        #expect(try x(runtime) == 0, "walk at 0 s, stand mixed in by 0")
        _ = try runtime.advance("sm", elapsed: 0.25)
        // walk at 0.25 s keys 10; stand mixed in by a quarter: 10 + (100 - 10) × 0.25.
        #expect(abs(try #require(try x(runtime)) - 32.5) < 1e-3)
        _ = try runtime.advance("sm", elapsed: 0.25)
        // walk at 0.5 s keys 20; halfway: 20 + 80 × 0.5.
        #expect(abs(try #require(try x(runtime)) - 60) < 1e-3)
        _ = try runtime.advance("sm", elapsed: 0.5)
        #expect(abs(try #require(try x(runtime)) - 100) < 1e-3, "the mix is over: stand alone")
        _ = try runtime.advance("sm", elapsed: 0.25)
        #expect(abs(try #require(try x(runtime)) - 100) < 1e-3, "walk is no longer applied")
    }

    @Test func aRestartDuringTheMixGoesOnExactly() throws {
        var runtime = try runtime()
        _ = try runtime.advance("sm", elapsed: 0)
        _ = try runtime.advance("sm", elapsed: 0.25)
        var restored = FileRuntime(schema: runtime.schema, restoring: runtime.persistentState)
        #expect(restored.persistentState == runtime.persistentState)
        #expect(restored.restartedStateMachines.isEmpty)
        _ = try runtime.advance("sm", elapsed: 0.25)
        _ = try restored.advance("sm", elapsed: 0.25)
        #expect(abs(try #require(try x(restored)) - 60) < 1e-3, "walk played on and mixed out after the restart")
        #expect(restored.persistentState == runtime.persistentState)
    }

    /// A saved state that no longer fits the file (another count of layers) starts the state
    /// machine again at its entry states, and says so.
    @Test func aSavedStateThatDoesNotFitRestartsTheStateMachineAndSaysWhy() throws {
        var runtime = try runtime()
        _ = try runtime.advance("sm", elapsed: 0.25)
        var state = runtime.persistentState
        let index = try #require(state.targets.firstIndex { $0.name == "sm" })
        state.targets[index].stateMachine = ["layers": [], "inputs": []]
        let restored = FileRuntime(schema: runtime.schema, restoring: state)
        let reason = try #require(restored.restartedStateMachines["sm"])
        #expect(reason.contains("layers"), "\(reason)")
        #expect(restored.persistentState.targets[index].stateMachine != runtime.persistentState.targets[index].stateMachine)
    }

    @Test func theTransitionsInterpolatorEasesTheMix() throws {
        var runtime = try runtime(eased: true)
        _ = try runtime.advance("sm", elapsed: 0)
        _ = try runtime.advance("sm", elapsed: 0.25)
        // A mix of 0.25 eases to 3/16 − 2/64 = 0.15625: 10 + 90 × 0.15625.
        #expect(abs(try #require(try x(runtime)) - 24.0625) < 1e-3)
        _ = try runtime.advance("sm", elapsed: 0.25)
        // A mix of 0.5 eases to 0.5: 20 + 80 × 0.5.
        #expect(abs(try #require(try x(runtime)) - 60) < 1e-3)
    }
}
