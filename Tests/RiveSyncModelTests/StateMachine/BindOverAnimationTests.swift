import RiveSyncModel
import Testing

/// A property both bound (to target) and keyed by an animation: Rive applies a bind whose
/// source changed in the artboard's update pass, after the state machine's animations, so the
/// bound value wins on the frame it changes (and on the first frame, when every bind
/// applies); on later frames only the animation writes it. Seen here through the node's
/// computed world x, bound to source.
@Suite struct BindOverAnimationTests {
    /// View model `V`: `x` (bound to node 1's x) and `worldX` (node 1's computed world x).
    /// Animation `hold` (a loop) keys node 1's x at 100; layer `L`: entry → `hold`.
    static let schemaJSON = """
        {
          "rivesyncSchema": 1,
          "viewModels": [ { "name": "V", "properties": [
            { "name": "x", "type": "number" }, { "name": "worldX", "type": "number" } ] } ],
          "artboards": [ { "name": "A", "viewModel": "V", "stateMachines": ["sm"], "defaultStateMachine": "sm" } ]
        }
        """

    static let objects: [RiveObject] =
        [
            RiveObject(typeKey: 1, properties: [4: .bytes(Array("A".utf8))]),
            RiveObject(typeKey: 2, properties: [5: .uint(0), 13: .float(50)]),
            RiveObject(typeKey: 447, properties: [586: .uint(13), 588: .bytes([0, 0])]),
            RiveObject(typeKey: 447, properties: [586: .uint(808), 587: .uint(1), 588: .bytes([0, 1])]),
            RiveObject(typeKey: 31, properties: [55: .bytes(Array("hold".utf8)), 56: .uint(10), 57: .uint(10), 59: .uint(1)]),
            RiveObject(typeKey: 25, properties: [51: .uint(1)]),
            RiveObject(typeKey: 26, properties: [53: .uint(13)]),
            RiveObject(typeKey: 30, properties: [67: .uint(0), 70: .float(100)]),
        ] + OneLayerStateMachine.objects

    private func worldX(_ runtime: FileRuntime) throws -> Float? {
        guard case .number(let value) = try runtime.value(at: "worldX", in: "sm") else { return nil }
        return value
    }

    @Test func theBoundValueWinsOnTheFrameItChangesAndTheAnimationAfter() throws {
        var schema = try FileSchema(jsonText: Self.schemaJSON)
        schema.graph = RiveGraph(objects: Self.objects)
        var runtime = FileRuntime(schema: schema)
        try runtime.createStateMachine(artboard: "A", stateMachine: "sm")
        _ = try runtime.advance("sm", elapsed: 0)
        #expect(try worldX(runtime) == 0, "the first frame applies every bind, after the animation")
        _ = try runtime.advance("sm", elapsed: 0.1)
        #expect(try worldX(runtime) == 100, "x did not change: the animation's value")
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "x", value: .number(7))), on: "sm")
        _ = try runtime.advance("sm", elapsed: 0.1)
        #expect(try worldX(runtime) == 7, "the frame x changes, the bind writes last")
        _ = try runtime.advance("sm", elapsed: 0.1)
        #expect(try worldX(runtime) == 100)
    }
}
