extension FileRuntime {
    /// Advances a target by `elapsed` seconds, as Rive's `advance(by:)` does: applies every
    /// operation queued on it, in arrival order, then runs its state machine (if it has one)
    /// for `elapsed` seconds. Returns one batch for that target plus one for each other target
    /// that can see a change (a shared global, a published instance, …), in target creation
    /// order. Nothing is returned when the queue is empty and the state machine changed
    /// nothing (but a batch does say when it settles, so subscribers learn it). A
    /// transaction's commands apply together or not at all: when one fails, the changes of
    /// the others are undone and none of their effects is in a batch.
    public mutating func advance(_ targetName: String, elapsed: Double = 0) throws(StateMachineError) -> [ChangeBatch] {
        guard let index = targets.index(forKey: targetName) else { throw .unknownTarget(targetName) }
        return advance(at: index, elapsed: elapsed)
    }

    /// Queues `commands` on a target and advances it (`enqueue` of each, then
    /// `advance(_:elapsed:)`), finding the target by its name once; the result also says what
    /// the caller would otherwise look the target up again for.
    public mutating func advance(
        _ targetName: String, queueing commands: QueuedCommands, elapsed: Double
    ) throws(StateMachineError) -> AdvanceResult {
        guard let index = targets.index(forKey: targetName) else { throw .unknownTarget(targetName) }
        let batches = advance(at: index, queueing: commands, elapsed: elapsed)
        return AdvanceResult(
            batches: batches, settled: targets.values[index].isSettled, generation: targets.values[index].generation)
    }

    /// `advance(_:elapsed:)` of the target at `index` in `targets`, `commands` queued after its
    /// queue. Nothing here adds or removes a target, so the index holds throughout.
    private mutating func advance(at index: TargetIndex, queueing commands: QueuedCommands = [], elapsed: Double) -> [ChangeBatch] {
        let targetName = targets.keys[index]
        // Only the queue is kept: a copy of the target kept while it changes would copy its
        // fields. Commands given to an empty queue are the queue (no array made of them).
        var queue = commands
        if !targets.values[index].queue.isEmpty {
            queue = QueuedCommands(targets.values[index].queue + commands)
            targets.values[index].queue = []
        }
        // A settled target's empty advance costs nothing: only a running state machine changes.
        guard !queue.isEmpty || !targets.values[index].isSettled else { return [] }
        var outcome = AdvanceOutcome(target: targetName)
        var start = 0
        while start < queue.count {
            guard let transaction = queue[start].transaction else {
                do {
                    var undo = ChangeUndo.off
                    try apply(queue[start], on: index, effects: &outcome.effects, undo: &undo)
                    outcome.applied(queue[start])
                } catch {
                    outcome.rejected.append(RejectedCommand(id: queue[start].id, error: error))
                }
                start += 1
                continue
            }
            let end = queue[start...].firstIndex { $0.transaction != transaction } ?? queue.count
            applyTransaction(queue[start..<end], on: index, outcome: &outcome)
            start = end
        }
        let wasSettled = targets.values[index].isSettled
        let step =
            targets.values[index].hasStateMachine
            ? stepStateMachine(targetName, elapsed: elapsed, effects: &outcome.effects) : StateMachineStep()
        guard !queue.isEmpty || !outcome.effects.isEmpty || !step.events.isEmpty || !step.layers.isEmpty || step.settled != wasSettled
        else { return [] }
        // The target's own batch alone when no other target sees a change (nothing made to go
        // through); else every target that sees one, in creation order.
        guard outcome.effects.reachOthers else { return [batch(of: index, own: true, outcome, step, elapsed: elapsed)] }
        var batches: [ChangeBatch] = []
        for name in targetNames {
            let own = name == targetName
            // The advanced target's own batch through its index: no name hashed again.
            guard own || !outcome.effects.effects(for: name).isEmpty, let record = own ? index : targets.index(forKey: name) else {
                continue
            }
            batches.append(batch(of: record, own: own, outcome, step, elapsed: elapsed))
        }
        return batches
    }

    /// The next batch of the target at `record`: the advanced target's own (`own`), or what
    /// another target sees of it.
    private mutating func batch(
        of record: TargetIndex, own: Bool, _ outcome: AdvanceOutcome, _ step: StateMachineStep, elapsed: Double
    ) -> ChangeBatch {
        let name = targets.keys[record]
        targets.values[record].seq += 1
        return ChangeBatch(
            target: name, seq: targets.values[record].seq, effects: coalesced(outcome.effects.effects(for: name)),
            applied: own ? outcome.appliedIDs : [], rejected: own ? outcome.rejected : [], authors: own ? outcome.authors : [:],
            rejectedTransactions: own ? outcome.rejectedTransactions : [], elapsed: own ? elapsed : 0,
            events: own ? step.events : [], layers: own ? step.layers : [], settled: own ? step.settled : isSettled(name))
    }

    /// Applies one transaction's commands in order; on the first failure undoes every change
    /// they made and drops their effects. `target`: the target's index in `targets`.
    private mutating func applyTransaction(_ commands: Slice<QueuedCommands>, on target: TargetIndex, outcome: inout AdvanceOutcome) {
        var undo = ChangeUndo(target: targets.values[target])
        let mark = outcome.effects.mark
        for (index, queued) in commands.enumerated() {
            do {
                try apply(queued, on: target, effects: &outcome.effects, undo: &undo)
            } catch {
                rollBack(undo, on: targets.keys[target])
                outcome.effects.rollBack(to: mark)
                outcome.rejectedTransactions.append(
                    RejectedTransaction(commands: commands.map(\.id), failure: TransactionError(index: index, error: error)))
                return
            }
        }
        commands.forEach { outcome.applied($0) }
    }

    /// Plans one command against the current state and applies its changes, recording each
    /// one's effect for every target that sees it.
    /// `target`: the target's index in `targets`.
    private mutating func apply(
        _ queued: QueuedCommand, on target: TargetIndex, effects: inout AdvanceEffects, undo: inout ChangeUndo
    ) throws(PropertyError) {
        if queued.command.drivesStateMachine {
            // Checked when queued; a state machine's inputs and data binds never change.
            do { try applyInput(queued.command, on: targets.keys[target]) } catch {
                throw .invalidValue(path: "", reason: "the state machine command could not be applied (a daemon bug): \(error)")
            }
            return
        }
        // Planned first: the target read for the plan is not kept while the changes apply. A
        // `set` (the usual command) makes at most one change, planned without an array and
        // applied where its resolution found the value.
        if case .set(let path, let value) = queued.command {
            var found: ResolvedProperty?
            guard let change = try planSet(value, at: path, in: targets.values[target], resolved: queued.resolved, found: &found) else {
                return
            }
            return try record(change, on: target, path: path, effects: &effects, undo: &undo, found: found)
        }
        for change in try plan(queued.command, in: targets.values[target], resolved: queued.resolved) {
            try record(change, on: target, path: queued.command.path, effects: &effects, undo: &undo, found: nil)
        }
    }

    /// Applies one planned change and records its effect for every target that sees it.
    private mutating func record(
        _ change: Change, on target: TargetIndex, path: String, effects: inout AdvanceEffects, undo: inout ChangeUndo,
        found: ResolvedProperty?
    ) throws(PropertyError) {
        // Where the change is seen, as of before it applies; recorded only once it
        // applied, so batches always say exactly what the store did. (A planned
        // change that fails to apply is a bug; its command is rejected with it.)
        let seen = visibility(of: change, from: targets.keys[target])
        try apply(change, on: target, path: path, undo: &undo, found: found)
        // Moved into the effects, not copied.
        switch consume seen {
        case .one(let name, let effect): effects.append(effect, for: name)
        case .several(let seen): for (name, effect) in seen { effects.append(effect, for: name) }
        }
    }

    /// The targets that see a change, with the effect each sees (`visibility(of:from:)`).
    private enum Seen {
        /// One target (the usual change), held without an array.
        case one(String, Effect)
        case several([(String, Effect)])
    }

    /// Records a change for every target that can see it, with that target's paths. A change
    /// to an instance no slot of a target reaches (addressed as `#id/…`) is in no batch of
    /// that target: its replicas do not hold the instance.
    private func visibility(of change: Change, from origin: String) -> Seen {
        if case .bind(let slot, _, _) = change { return .one(origin, Effect(paths: [slot.pathPrefix], change: change)) }
        let (instance, property) = change.location
        // One slot's own instance, held by no other (the usual change): that slot's path alone.
        if let roots = rootSlots[instance], roots.count == 1, store.parents[instance] == nil {
            return .one(roots[0].target, Effect(paths: [PropertyPath.appending(property, to: roots[0].prefix)], change: change))
        }
        return .several(
            store.paths(to: instance, rootSlots: rootSlots).map { name, paths in
                (name, Effect(paths: paths.map { PropertyPath.appending(property, to: $0) }, change: change))
            })
    }

    /// Applies one planned change to the store (and, for a bind, to the target's bindings and
    /// the root index). A planned change that does not apply is a bug: its command is rejected
    /// with `invalidValue`, and nothing of the change is recorded.
    /// `undo` keeps what the change replaces.
    mutating func apply(_ change: Change, on targetName: String, path: String, undo: inout ChangeUndo) throws(PropertyError) {
        try apply(change, on: targets.index(forKey: targetName)!, path: path, undo: &undo)
    }

    /// `apply(_:on:path:undo:)` of the target at `target` in `targets`; `found`: the resolution
    /// that found a `set`'s value (the change applies where it lies, `InstanceStore.Layout`).
    mutating func apply(
        _ change: Change, on target: TargetIndex, path: String, undo: inout ChangeUndo, found: ResolvedProperty? = nil
    ) throws(PropertyError) {
        if case .bind = change {} else { undo.keep(change.location.0, from: store) }
        let isBind: Bool
        if case .bind = change { isBind = true } else { isBind = false }
        if isBind { unindexRoots(of: targets.values[target]) }
        defer { if isBind { indexRoots(of: targets.values[target]) } }
        do {
            try changeStore(andBindingsOf: target) { (store, bindings) throws(ReplicaError) in
                try ChangeApplier.apply(change, to: &store, bindings: &bindings, found: found)
            }
        } catch {
            throw .invalidValue(path: path, reason: "the change could not be applied (a daemon bug): \(error)")
        }
    }

    /// Drops value writes that a later write to the same property in this batch supersedes.
    private func coalesced(_ effects: [Effect]) -> [Effect] {
        guard coalescing == .latestValue, effects.count > 1 else { return effects }
        var seen = Set<InstanceProperty>()
        var kept: [Effect] = []
        for effect in effects.reversed() {
            if case .set(let instance, let property, let value, _) = effect.change, !value.isInstanceReference {
                guard seen.insert(InstanceProperty(instance: instance, property: property)).inserted else { continue }
            }
            kept.append(effect)
        }
        return kept.reversed()
    }
}

/// What `FileRuntime.advance(_:queueing:elapsed:)` did: its batches, and the advanced target as
/// the advance left it.
public struct AdvanceResult: Sendable {
    /// The advance's batches (`FileRuntime.advance(_:elapsed:)`).
    public var batches: [ChangeBatch]
    /// Whether the target's state machine needs no further advance (`FileRuntime.isSettled`).
    public var settled: Bool
    /// The target's generation (`Target.generation`).
    public var generation: Int
}

/// What an advance has done so far: effects per target, and the outcome of each command.
private struct AdvanceOutcome {
    var effects: AdvanceEffects
    var appliedIDs: [UInt64] = []
    var authors = CommandAuthors()
    var rejected: [RejectedCommand] = []
    var rejectedTransactions: [RejectedTransaction] = []

    init(target: String) { effects = AdvanceEffects(target: target) }

    mutating func applied(_ command: QueuedCommand) {
        appliedIDs.append(command.id)
        if let author = command.author { authors[command.id] = author }
    }
}

/// One property of one instance (not Rive's numeric property key, `RiveFile`'s `PropertyKey`).
private struct InstanceProperty: Hashable {
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
