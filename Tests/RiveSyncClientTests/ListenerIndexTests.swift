import RiveSyncModel
import RiveSyncProtocol
import XCTest

@testable import RiveSyncClient

/// Listeners are found from the batch's effects: a value-only batch compares only the
/// listeners of the properties it changes; a batch that can move paths compares them all.
final class ListenerIndexTests: XCTestCase {
    static let schema = #"""
        {"viewModels": [
          {"name": "P", "properties": [{"name": "x", "type": "number"}, {"name": "t", "type": "trigger"}]},
          {"name": "L", "properties": [{"name": "items", "type": "list"}]}],
         "artboards": [{"name": "A", "viewModel": "L", "stateMachines": ["s"]}]}
        """#

    /// A mirror of target "s": a list of `count` P instances (ids 2…), one listener on each x.
    private func mirror(items count: Int, events: @escaping @Sendable (Int, ListenerEvent) -> Void) throws -> TargetMirror {
        let schema = try FileSchema(jsonText: Self.schema)
        let items = (0..<count).map { InstanceID(UInt64($0 + 2)) }
        var instances = [InstanceState(id: InstanceID(1), viewModel: "L", name: "", values: ["items": .list(items)])]
        instances += items.map { InstanceState(id: $0, viewModel: "P", name: "", values: ["x": .number(0), "t": .trigger(0)]) }
        var mirror = TargetMirror(target: "s", file: "f", schema: schema)
        mirror.install(
            snapshot: TargetSnapshot(target: "s", seq: 1, bindings: [Binding(slot: .main, instance: InstanceID(1))], instances: instances),
            epoch: "e")
        for index in 0..<count {
            let path = "items/\(index)/x"
            let resolved = try ReplicaPath.resolve(path, from: nil, in: mirror.replica!, schema: schema)
            mirror.add(
                Listener(
                    root: nil, path: path, kind: .value, lastInstance: resolved.instance, lastProperty: "x", last: resolved.value,
                    sink: { events(index, $0) }),
                id: index)
        }
        return mirror
    }

    private func batch(_ seq: UInt64, _ effects: [Effect]) -> ServerMessage.Batch {
        ServerMessage.Batch(target: "s", epoch: "e", seq: seq, effects: effects, commands: [])
    }

    func testAValueOnlyBatchComparesOnlyTheListenersItTouches() throws {
        let seen = Locked<[(Int, Float)]>([])
        var mirror = try mirror(items: 100) { index, event in
            if case .value(.number(let n)) = event { seen.withLock { $0.append((index, n)) } }
        }
        let before = mirror.listenerUpdates
        let set = Effect(paths: ["items/7/x"], change: .set(instance: InstanceID(9), property: "x", value: .number(5), introduced: []))
        try mirror.apply(batch(2, [set]))
        XCTAssertEqual(mirror.listenerUpdates - before, 1, "one listener watches instance 9's x")
        XCTAssertEqual(seen.withLock { $0.map(\.0) }, [7])
        XCTAssertEqual(seen.withLock { $0.map(\.1) }, [5])
        let fire = Effect(paths: ["items/3/t"], change: .fire(instance: InstanceID(5), property: "t"))
        try mirror.apply(batch(3, [fire]))
        XCTAssertEqual(mirror.listenerUpdates - before, 1, "nobody watches the trigger")
    }

    func testABatchThatMovesPathsComparesEveryListener() throws {
        let seen = Locked<[(Int, Float)]>([])
        var mirror = try mirror(items: 3) { index, event in
            if case .value(.number(let n)) = event { seen.withLock { $0.append((index, n)) } }
        }
        try mirror.apply(
            batch(
                2, [Effect(paths: ["items/0/x"], change: .set(instance: InstanceID(2), property: "x", value: .number(1), introduced: []))]))
        let before = mirror.listenerUpdates
        // Swapping items 0 and 2: "items/0/x" now leads to instance 4 (x 0), "items/2/x" to instance 2 (x 1).
        try mirror.apply(
            batch(3, [Effect(paths: ["items"], change: .listSwap(instance: InstanceID(1), property: "items", index: 0, with: 2))]))
        XCTAssertEqual(mirror.listenerUpdates - before, 3)
        XCTAssertEqual(seen.withLock { $0.map { "\($0.0)=\($0.1)" } }, ["0=1.0", "0=0.0", "2=1.0"])
        // The index follows the move: a set of instance 2's x now reaches the listener of "items/2/x".
        try mirror.apply(
            batch(
                4, [Effect(paths: ["items/2/x"], change: .set(instance: InstanceID(2), property: "x", value: .number(9), introduced: []))]))
        XCTAssertEqual(mirror.listenerUpdates - before, 4)
        XCTAssertEqual(seen.withLock { $0.last.map { "\($0.0)=\($0.1)" } }, "2=9.0")
    }

    /// Not asserted: what a value-only batch costs with many listeners, against comparing every
    /// listener (what the mirror did before the index). BENCH_REV names the build in the output.
    func testBenchmarkValueBatchesWithManyListeners() throws {
        let count = 2_000
        var mirror = try mirror(items: count) { _, _ in }
        let clock = ContinuousClock()
        let batches = 200
        let indexed = try clock.measure {
            for seq in 0..<batches {
                let id = InstanceID(UInt64(seq % count + 2))
                let set = Effect(
                    paths: ["items/\(seq % count)/x"],
                    change: .set(instance: id, property: "x", value: .number(Float(seq + 1)), introduced: []))
                try mirror.apply(batch(UInt64(seq + 2), [set]))
            }
        }
        let rounds = 20
        let everyListener = clock.measure {
            for _ in 0..<rounds { mirror.notify(changes: nil) }
        }
        let rev = ProcessInfo.processInfo.environment["BENCH_REV"] ?? "working tree"
        print(
            "BENCH listener-index (\(rev)): \(count) listeners, \(batches) one-value batches: indexed \(indexed / batches) per batch,"
                + " every listener compared \(everyListener / rounds) per batch")
    }
}
