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
                    distribute(change, from: targetName, into: &effects)
                    do {
                        try ChangeApplier.apply(change, to: &store, bindings: &targets[targetName]!.bindings)
                    } catch {
                        assertionFailure("a planned change did not apply: \(error)")
                    }
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
    private func distribute(_ change: Change, from origin: String, into effects: inout [String: [Effect]]) {
        if case .bind(let slot, _, _) = change {
            effects[origin, default: []].append(Effect(paths: [slot.pathPrefix], change: change))
            return
        }
        let (instance, property) = change.location
        for name in targetNames {
            let paths = self.paths(of: instance, property: property, in: targets[name]!)
            if !paths.isEmpty {
                effects[name, default: []].append(Effect(paths: paths, change: change))
            }
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
