import Foundation
import RiveSyncModel
import Testing

/// A node's computed properties as Rive's transform pass gives them, bound to source. Numbers
/// worked out by hand from Rive's semantics (`TransformComponent::updateTransform`, world =
/// parent world × local, `TransformConstraint::constrain`, `Node::computed*`).
@Suite struct ComputedTransformTests {
    /// View model `V`: `rootX`, `worldY`, `localX` (the child's), `targetX` (bound to the
    /// target's x), `followerX` (the follower's world x). Artboard `A`:
    /// 1 `parent` at (100, 50), turned a quarter turn, scaled ×2 along x, its x keyed from 100
    ///   to 200 over one second by the state machine's only animation;
    /// 2 `child` of `parent` at (10, 0): its computed root x, world y and local x bound to source;
    /// 3 `target` at the origin, its x bound to `targetX`;
    /// 4 `follower` at (40, 0) with 5, a transform constraint toward `target` at strength 0.5.
    static let schemaJSON = """
        {
          "rivesyncSchema": 1,
          "viewModels": [ { "name": "V", "properties": [
            { "name": "rootX", "type": "number" }, { "name": "worldY", "type": "number" },
            { "name": "localX", "type": "number" }, { "name": "targetX", "type": "number" },
            { "name": "followerX", "type": "number" } ] } ],
          "artboards": [ { "name": "A", "viewModel": "V", "stateMachines": ["sm"], "defaultStateMachine": "sm" } ]
        }
        """

    static func bind(_ key: Int, to property: UInt8, toSource: Bool) -> RiveObject {
        RiveObject(typeKey: 447, properties: [586: .uint(UInt64(key)), 587: .uint(toSource ? 1 : 0), 588: .bytes([0, property])])
    }

    static let objects: [RiveObject] =
        [
            RiveObject(typeKey: 1, properties: [4: .bytes(Array("A".utf8))]),
            RiveObject(
                typeKey: 2, properties: [5: .uint(0), 13: .float(100), 14: .float(50), 15: .float(Float.pi / 2), 16: .float(2)]),
            RiveObject(typeKey: 3, properties: [5: .uint(1), 13: .float(10)]),
            bind(864, to: 0, toSource: true),
            bind(809, to: 1, toSource: true),
            bind(806, to: 2, toSource: true),
            RiveObject(typeKey: 2, properties: [5: .uint(0)]),
            bind(13, to: 3, toSource: false),
            RiveObject(typeKey: 2, properties: [5: .uint(0), 13: .float(40)]),
            bind(808, to: 4, toSource: true),
            RiveObject(typeKey: 83, properties: [5: .uint(4), 173: .uint(3), 172: .float(0.5)]),
            RiveObject(typeKey: 31, properties: [55: .bytes(Array("move".utf8)), 56: .uint(10), 57: .uint(10)]),
            RiveObject(typeKey: 25, properties: [51: .uint(1)]),
            RiveObject(typeKey: 26, properties: [53: .uint(13)]),
            RiveObject(typeKey: 30, properties: [67: .uint(0), 68: .uint(1), 70: .float(100)]),
            RiveObject(typeKey: 30, properties: [67: .uint(10), 68: .uint(1), 70: .float(200)]),
        ] + OneLayerStateMachine.objects

    private func runtime() throws -> FileRuntime {
        var schema = try FileSchema(jsonText: Self.schemaJSON)
        schema.graph = RiveGraph(objects: Self.objects)
        var runtime = FileRuntime(schema: schema)
        try runtime.createStateMachine(artboard: "A", stateMachine: "sm")
        return runtime
    }

    private func number(_ path: String, _ runtime: FileRuntime) throws -> Float {
        guard case .number(let value) = try runtime.value(at: path, in: "sm") else {
            throw Unexpected(description: "\(path) is not a number")
        }
        return value
    }

    struct Unexpected: Error, CustomStringConvertible {
        var description: String
    }

    @Test func aChildsWorldPositionGoesThroughItsParentsRotationAndScale() throws {
        var runtime = try runtime()
        _ = try runtime.advance("sm", elapsed: 0)
        // (10, 0) scaled ×2 → (20, 0), turned a quarter → (0, 20), moved by (100, 50).
        #expect(abs(try number("rootX", runtime) - 100) < 1e-3)
        #expect(abs(try number("worldY", runtime) - 70) < 1e-3)
        #expect(abs(try number("localX", runtime) - 10) < 1e-3, "the child's position in its parent's space")
    }

    @Test func aKeyedParentMovesItsChildsComputedPositionInTheSameAdvance() throws {
        var runtime = try runtime()
        _ = try runtime.advance("sm", elapsed: 0)
        _ = try runtime.advance("sm", elapsed: 0.5)
        #expect(abs(try number("rootX", runtime) - 150) < 1e-3, "the parent's x is keyed halfway from 100 to 200")
        #expect(abs(try number("worldY", runtime) - 70) < 1e-3)
    }

    @Test func aTransformConstraintBlendsTowardItsBoundTargetByItsStrength() throws {
        var runtime = try runtime()
        _ = try runtime.advance("sm", elapsed: 0)
        #expect(abs(try number("followerX", runtime) - 20) < 1e-3, "halfway from 40 to the target at 0")
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "targetX", value: .number(200))), on: "sm")
        _ = try runtime.advance("sm", elapsed: 0.016)
        #expect(abs(try number("followerX", runtime) - 120) < 1e-3, "halfway from 40 to the target at 200, in the advance that moved it")
    }
}
