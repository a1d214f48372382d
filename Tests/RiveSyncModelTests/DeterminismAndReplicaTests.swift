import RiveSyncModel
import Testing

@Suite struct DeterminismAndReplicaTests {
    /// Runs `count` random operations with `seed`, advancing every `perAdvance` operations,
    /// and returns the batches for `sm` and the final digest.
    private func run(seed: UInt64, count: Int, perAdvance: Int, coalescing: CoalescingPolicy) throws -> (
        snapshot: TargetSnapshot, batches: [ChangeBatch], digest: String
    ) {
        var runtime = try Fixtures.kitchenRuntime(coalescing: coalescing)
        let snapshot = try runtime.snapshot(of: "sm")
        var random = RandomCommands(rng: SeededGenerator(seed: seed))
        var batches: [ChangeBatch] = []
        for i in 0..<count {
            let command = try random.next(in: &runtime)
            try runtime.enqueue(QueuedCommand(id: UInt64(i), command: command), on: "sm")
            if i % perAdvance == perAdvance - 1 { batches += try runtime.advance("sm") }
        }
        batches += try runtime.advance("sm")
        return (snapshot, batches, try runtime.digest(of: "sm"))
    }

    @Test func sameOperationsGiveSameBatchesAndDigest() throws {
        let first = try run(seed: 42, count: 5_000, perAdvance: 7, coalescing: .latestValue)
        let second = try run(seed: 42, count: 5_000, perAdvance: 7, coalescing: .latestValue)
        #expect(first.batches == second.batches)
        #expect(first.digest == second.digest)
        #expect(first.batches.reduce(0) { $0 + $1.applied.count + $1.rejected.count } == 5_000)
        #expect(first.batches.contains { !$0.rejected.isEmpty } && first.batches.contains { !$0.applied.isEmpty })
        let other = try run(seed: 43, count: 5_000, perAdvance: 7, coalescing: .latestValue)
        #expect(other.digest != first.digest, "the digest depends on the state")
    }

    @Test(arguments: [CoalescingPolicy.latestValue, .none])
    func replicasApplyingTheBatchStreamReachTheSourceDigest(coalescing: CoalescingPolicy) throws {
        let source = try run(seed: 7, count: 4_000, perAdvance: 5, coalescing: coalescing)
        var replicas = (0..<4).map { _ in Replica(snapshot: source.snapshot) }
        for batch in source.batches {
            for i in replicas.indices { try replicas[i].apply(batch) }
        }
        for replica in replicas {
            #expect(replica.digest == source.digest)
            #expect(replica.seq == source.batches.last?.seq)
        }
    }

    @Test func replicaStartedMidStreamFromASnapshotConverges() throws {
        var runtime = try Fixtures.kitchenRuntime()
        var random = RandomCommands(rng: SeededGenerator(seed: 99))
        var late: Replica?
        for i in 0..<2_000 {
            try runtime.enqueue(QueuedCommand(id: UInt64(i), command: try random.next(in: &runtime)), on: "sm")
            guard i % 3 == 0 else { continue }
            for batch in try runtime.advance("sm") { try late?.apply(batch) }
            if i == 900 { late = Replica(snapshot: try runtime.snapshot(of: "sm")) }
        }
        for batch in try runtime.advance("sm") { try late?.apply(batch) }
        #expect(late?.digest == (try runtime.digest(of: "sm")))
    }

    @Test func replicaRejectsGapsAndForeignBatchesAndStaysUnchanged() throws {
        var runtime = try Fixtures.kitchenRuntime()
        var replica = Replica(snapshot: try runtime.snapshot(of: "sm"))
        let first = try runtime.apply(.set(path: "num", value: .number(1)))
        let second = try runtime.apply(.set(path: "num", value: .number(2)), id: 2)
        #expect(throws: ReplicaError.outOfOrder(expected: 1, received: 2)) { try replica.apply(second) }
        var foreign = first
        foreign.target = "other"
        #expect(throws: ReplicaError.wrongTarget(expected: "sm", received: "other")) { try replica.apply(foreign) }
        var broken = first
        broken.effects = [Effect(paths: ["x"], change: .listRemove(instance: InstanceID(1), property: "lis", index: 99))]
        let before = replica.digest
        #expect(throws: ReplicaError.self) { try replica.apply(broken) }
        #expect(replica.digest == before && replica.seq == 0)
        try replica.apply(first)
        try replica.apply(second)
        #expect(replica.digest == (try runtime.digest(of: "sm")))
    }

    /// A `set` to an instance or a property the replica does not hold is refused with the
    /// instance's or the property's error, and changes nothing; one that fits changes the value
    /// (and keeps the parent index: a nested instance set in its place is reachable).
    @Test func aSetThatDoesNotFitIsRefusedAndOneThatFitsApplies() throws {
        var runtime = try Fixtures.kitchenRuntime()
        var replica = Replica(snapshot: try runtime.snapshot(of: "sm"))
        let batch = try runtime.apply(.set(path: "num", value: .number(4)))
        let main = try runtime.mainInstance()
        func with(_ change: Change) -> ChangeBatch {
            var changed = batch
            changed.effects = [Effect(paths: ["num"], change: change)]
            return changed
        }
        let before = replica.digest
        #expect(throws: ReplicaError.unknownInstance(InstanceID(999))) {
            try replica.apply(with(.set(instance: InstanceID(999), property: "num", value: .number(4), introduced: [])))
        }
        #expect(throws: ReplicaError.invalidChange("\(main) has no property 'nope'")) {
            try replica.apply(with(.set(instance: main, property: "nope", value: .number(4), introduced: [])))
        }
        #expect(replica.digest == before && replica.seq == 0)
        try replica.apply(batch)
        #expect(replica.store[main]?.values["num"] == .number(4))
        let child = try runtime.createInstance(.blank(from: .name("Child")))
        let nested = try runtime.apply(.set(path: "chi", value: .viewModel(child)), id: 2)
        let label = try runtime.apply(.set(path: "chi/label", value: .string("x")), id: 3)
        #expect(label.effects.map(\.paths) == [["chi/label"]], "the new child is found where it was set")
        try replica.apply(nested)
        try replica.apply(label)
        #expect(replica.digest == (try runtime.digest(of: "sm")))
    }

    @Test func digestIgnoresUnreachableInstances() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let before = try runtime.digest(of: "sm")
        _ = try runtime.createInstance(.blank(from: .name("Child")))
        #expect(try runtime.digest(of: "sm") == before)
        try runtime.apply(.set(path: "num", value: .number(8)))
        #expect(try runtime.digest(of: "sm") != before)
    }
}

/// The digest orders property names by their UTF-8 bytes, as PROTOCOL.md §7 says (not by
/// Swift's `<`, which compares normalized text: "e\u{301}x" sorts after "f" there).
@Suite struct DigestKeyOrderTests {
    @Test func propertyNamesSortByTheirUTF8Bytes() throws {
        let schema = try FileSchema(
            jsonText:
                #"{"viewModels": [{"name": "V", "properties": [{"name": "f", "type": "number"}, {"name": "e\u0301x", "type": "number"}]}]}"#
        )
        var runtime = FileRuntime(schema: schema)
        let instance = try runtime.createInstance(.blank(from: .name("V")))
        try runtime.publish(instance, as: "v")
        let bytes = StateDigest.canonicalBytes(bindings: try runtime.target("v").bindings, store: runtime.store)
        let decomposed = try #require(bytes.firstRange(of: Array("e\u{301}x".utf8)))
        let plain = try #require(bytes.firstRange(of: [0, 0, 0, 0, 0, 0, 0, 1, UInt8(ascii: "f")]))
        #expect(decomposed.lowerBound < plain.lowerBound)
    }
}
