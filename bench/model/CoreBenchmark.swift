import Foundation
import RiveSyncModel

/// The view-model core benchmark (issue 7) and the journaled-create comparison (issue 11).
func runCoreBenchmark() throws {
    // Benchmark: apply + advance throughput of the view-model core with 1,000 instances and
    // 100,000 queued operations, against a named baseline measured in the same run:
    // "dictionary floor" = the same 100k writes into a plain [String: Float] keyed by path.

    let instanceCount = 1_000
    let operationCount = 100_000
    let runs = 5

    let schemaJSON = """
        {"viewModels": [
          {"name": "Item", "properties": [{"name": "x", "type": "number"}, {"name": "label", "type": "string"},
                                           {"name": "hit", "type": "trigger"}]},
          {"name": "Scene", "properties": [{"name": "items", "type": "list"}]}],
         "artboards": [{"name": "Main", "viewModel": "Scene", "stateMachines": ["sm"]}]}
        """

    func operations() -> [Command] {
        var rng = UInt64(12345)
        func next() -> Int {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(rng >> 33)
        }
        return (0..<operationCount).map { i in
            let item = next() % instanceCount
            switch i % 10 {
            case 0: return .fire(path: "items/\(item)/hit")
            case 1: return .set(path: "items/\(item)/label", value: .string("v\(i)"))
            default: return .set(path: "items/\(item)/x", value: .number(Float(i)))
            }
        }
    }

    func prepared(_ coalescing: CoalescingPolicy) throws -> FileRuntime {
        let schema = try FileSchema(jsonText: schemaJSON)
        var runtime = FileRuntime(schema: schema, coalescing: coalescing)
        try runtime.createStateMachine(artboard: "Main")
        for i in 0..<instanceCount {
            let item = try runtime.createInstance(.blank(from: .name("Item")))
            try runtime.enqueue(QueuedCommand(id: UInt64(i), command: .listAppend(path: "items", instance: item)), on: "sm")
        }
        _ = try runtime.advance("sm")
        return runtime
    }

    let ops = operations()
    var floorTimes: [Double] = []
    var results: [CoalescingPolicy: [Double]] = [:]
    var replicaTimes: [Double] = []
    for _ in 0..<runs {
        var floor: [String: Float] = [:]
        floorTimes.append(
            seconds {
                for (i, op) in ops.enumerated() { floor[op.path] = Float(i) }
            })
        for policy in [CoalescingPolicy.none, .latestValue] {
            var runtime = try prepared(policy)
            let snapshot = try runtime.snapshot(of: "sm")
            var batches: [ChangeBatch] = []
            let time = try seconds {
                for (i, op) in ops.enumerated() {
                    try runtime.enqueue(QueuedCommand(id: UInt64(i), command: op), on: "sm")
                }
                batches = try runtime.advance("sm")
            }
            results[policy, default: []].append(time)
            if policy == .none {
                var replica = Replica(snapshot: snapshot)
                replicaTimes.append(try seconds { for batch in batches { try replica.apply(batch) } })
                let sourceDigest = try runtime.digest(of: "sm")
                precondition(replica.digest == sourceDigest, "replica diverged")
            }
        }
    }

    func rate(_ time: Double) -> String { String(format: "%10.0f ops/s", Double(operationCount) / time) }
    print("view-model core: \(instanceCount) instances, \(operationCount) queued ops, one advance, median of \(runs) runs")
    print("  baseline  dictionary floor (path -> Float):   \(rate(median(floorTimes)))")
    print("  advance   coalescing none:                   \(rate(median(results[.none]!)))")
    print("  advance   coalescing latestValue:            \(rate(median(results[.latestValue]!)))")
    print("  replica   apply the 'none' batch:            \(rate(median(replicaTimes)))")
    print(String(format: "  advance(none) / floor: %.1fx slower", median(results[.none]!) / median(floorTimes)))

    // A journaled create at 100k instances: the daemon's worker used to run each journaled
    // mutation on a copy of the file's runtime (so a failure left the state untouched), which
    // copies the whole instance store; since the model's mutations check everything before they
    // change anything, it mutates in place. Both patterns, measured here in the same run.
    let largeCount = 100_000
    let creates = 200
    var large = FileRuntime(schema: try FileSchema(jsonText: schemaJSON))
    for _ in 0..<largeCount { _ = try large.createInstance(.blank(from: .name("Item"))) }
    var copyTimes: [Double] = []
    var inPlaceTimes: [Double] = []
    for _ in 0..<runs {
        copyTimes.append(
            try seconds {
                for _ in 0..<creates {
                    var copy = large
                    _ = try copy.createInstance(.blank(from: .name("Item")))
                    large = copy
                }
            })
        inPlaceTimes.append(
            try seconds {
                for _ in 0..<creates { _ = try large.createInstance(.blank(from: .name("Item"))) }
            })
    }
    func perCreate(_ time: Double) -> String { String(format: "%9.1f µs per create", time / Double(creates) * 1e6) }
    print("journaled create at \(largeCount / 1000)k instances (\(creates) creates, median of \(runs) runs)")
    print("  baseline  copy, create, keep the copy (fc7e991): \(perCreate(median(copyTimes)))")
    print("  now       create in place:                        \(perCreate(median(inPlaceTimes)))")
}
