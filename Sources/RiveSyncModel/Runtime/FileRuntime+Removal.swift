/// What deleting a target did.
public struct TargetRemoval: Sendable, Hashable {
    /// The target's queued commands, dropped without being applied.
    public var dropped: [QueuedCommand]
    /// Instances freed with it, in id order.
    public var freed: [InstanceID]
}

extension FileRuntime {
    /// Deletes a target: its queue is dropped, and the instances it held are freed unless
    /// something else still holds them (another target, or a live instance outside the
    /// target that refers to them). Instances that no target ever held are never freed here.
    /// The name can be used again; the next target with it starts a new generation.
    public mutating func removeTarget(_ name: String) throws(StateMachineError) -> TargetRemoval {
        let target = try target(name)
        unindexRoots(of: target)
        targets[name] = nil
        targetNames.removeAll { $0 == name }
        retiredTargets[name] = target.generation
        var candidates = Set(store.closure(of: target.roots.map(\.id)))
        for id in store.closure(of: targets.values.flatMap { $0.roots.map(\.id) }) { candidates.remove(id) }
        let heldFromOutside = store.instances.values.filter { !candidates.contains($0.id) }
            .flatMap(\.children).filter(candidates.contains)
        for id in store.closure(of: heldFromOutside) { candidates.remove(id) }
        let freed = candidates.sorted()
        for id in freed { store.remove(id) }
        return TargetRemoval(dropped: target.queue, freed: freed)
    }
}
