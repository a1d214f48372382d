extension FileRuntime {
    /// Applies every operation queued on a target, in arrival order, and returns one batch for
    /// that target plus one for each other target that can see a change (a shared global, a
    /// published instance, …), in target creation order. Nothing is returned when the queue is
    /// empty.
    public mutating func advance(_ targetName: String) throws(StateMachineError) -> [ChangeBatch] {
        var target = try target(targetName)
        guard !target.queue.isEmpty else { return [] }
        let queue = target.queue
        targets[targetName]!.queue = []
        var effects: [String: [Effect]] = [:]
        var applied: [UInt64] = []
        var rejected: [RejectedCommand] = []
        for queued in queue {
            do {
                target = targets[targetName]!
                for change in try plan(queued.command, in: target) {
                    // Where the change is seen, as of before it applies; recorded only once it
                    // applied, so batches always say exactly what the store did. (A planned
                    // change that fails to apply is a bug; its command is rejected with it.)
                    let seen = visibility(of: change, from: targetName)
                    try apply(change, on: targetName, path: queued.command.path)
                    for (name, effect) in seen { effects[name, default: []].append(effect) }
                }
                applied.append(queued.id)
            } catch {
                rejected.append(RejectedCommand(id: queued.id, error: error))
            }
        }
        var batches: [ChangeBatch] = []
        for name in targetNames {
            let own = name == targetName
            guard own || !(effects[name] ?? []).isEmpty else { continue }
            targets[name]!.seq += 1
            batches.append(
                ChangeBatch(
                    target: name, seq: targets[name]!.seq, effects: coalesced(effects[name] ?? []),
                    applied: own ? applied : [], rejected: own ? rejected : []))
        }
        return batches
    }

    /// Records a change for every target that can see it, with that target's paths. A change
    /// to an instance no slot of a target reaches (addressed as `#id/…`) is in no batch of
    /// that target: its replicas do not hold the instance.
    private func visibility(of change: Change, from origin: String) -> [(String, Effect)] {
        if case .bind(let slot, _, _) = change { return [(origin, Effect(paths: [slot.pathPrefix], change: change))] }
        let (instance, property) = change.location
        return store.paths(to: instance, rootSlots: rootSlots).map { name, paths in
            (name, Effect(paths: paths.map { $0.isEmpty ? property : $0 + "/" + property }, change: change))
        }
    }

    /// Applies one planned change to the store (and, for a bind, to the target's bindings and
    /// the root index). A planned change that does not apply is a bug: its command is rejected
    /// with `invalidValue`, and nothing of the change is recorded.
    private mutating func apply(_ change: Change, on targetName: String, path: String) throws(PropertyError) {
        let isBind: Bool
        if case .bind = change { isBind = true } else { isBind = false }
        if isBind { unindexRoots(of: targets[targetName]!) }
        defer { if isBind { indexRoots(of: targets[targetName]!) } }
        do {
            try ChangeApplier.apply(change, to: &store, bindings: &targets[targetName]!.bindings)
        } catch {
            throw .invalidValue(path: path, reason: "the change could not be applied (a daemon bug): \(error)")
        }
    }

    /// Drops value writes that a later write to the same property in this batch supersedes.
    private func coalesced(_ effects: [Effect]) -> [Effect] {
        guard coalescing == .latestValue else { return effects }
        var seen = Set<PropertyKey>()
        var kept: [Effect] = []
        for effect in effects.reversed() {
            if case .set(let instance, let property, let value, _) = effect.change, !value.isInstanceReference {
                guard seen.insert(PropertyKey(instance: instance, property: property)).inserted else { continue }
            }
            kept.append(effect)
        }
        return kept.reversed()
    }
}

private struct PropertyKey: Hashable {
    var instance: InstanceID
    var property: String
}

extension Change {
    /// The instance and property a non-bind change touches.
    var location: (InstanceID, String) {
        switch self {
        case .set(let instance, let property, _, _), .fire(let instance, let property),
            .listInsert(let instance, let property, _, _, _), .listRemove(let instance, let property, _),
            .listSwap(let instance, let property, _, _):
            return (instance, property)
        case .bind(_, let instance, _):
            return (instance, "")
        }
    }
}

extension PropertyValue {
    /// Whether the value points at instances (a nested view model or a list).
    var isInstanceReference: Bool {
        switch self {
        case .viewModel, .list: return true
        default: return false
        }
    }
}
