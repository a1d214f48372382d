/// What one state machine step did beyond the effects it recorded.
struct StateMachineStep {
    var events: [ReportedEvent] = []
    /// Layers whose state changed, with their new state.
    var layers: [LayerState] = []
    var settled = true
}

extension FileRuntime {
    /// Gives a state machine target whose file describes its state machine a running
    /// instance, bound to the target's instances (a JSON schema without a graph gives none).
    mutating func attachStateMachine(to targetName: String) {
        guard let target = targets[targetName], case .stateMachine(let artboard, let name) = target.kind,
            let definition = StateMachineDefinition.build(from: schema.graph, artboard: artboard, stateMachine: name)
        else { return }
        var machine = StateMachineInstance(definition: definition, graph: schema.graph)
        machine.bind(access: access(for: target, store: store))
        targets[targetName]!.stateMachine = machine
    }

    /// Runs the target's state machine for `elapsed` seconds after its queue applied,
    /// recording the changes it makes (origin `.stateMachine`) for every target that sees them.
    mutating func stepStateMachine(_ targetName: String, elapsed: Double, effects: inout AdvanceEffects) -> StateMachineStep {
        guard targets[targetName]?.hasStateMachine == true else { return StateMachineStep() }
        var changed: [ValueLocation] = []
        var rebound = false
        for effect in effects.effects(for: targetName) where effect.origin == .command {
            if case .bind = effect.change {
                rebound = true
            } else {
                let (instance, property) = effect.change.location
                changed.append(ValueLocation(instance: instance, property: property))
            }
        }
        var access = access(for: targets[targetName]!, store: store)
        store = InstanceStore()
        // The state machine is taken out of its target while it runs (put back after), so that
        // it changes in place rather than copying what the target still holds of it.
        var machine = targets[targetName]!.stateMachine!
        targets[targetName]!.stateMachine = nil
        if rebound { machine.bind(access: access) }
        machine.noteChanged(changed)
        let outcome = machine.advance(by: Float(elapsed), access: &access)
        store = access.store
        for (name, made) in access.effects { effects.append(contentsOf: made, for: name) }
        targets[targetName]!.stateMachine = machine
        let states = machine.layerStates
        return StateMachineStep(
            events: outcome.events, layers: outcome.changedLayers.map { states[$0] }, settled: outcome.settled)
    }

    private func access(for target: Target, store: InstanceStore) -> RuntimeViewModelAccess {
        RuntimeViewModelAccess(store: store, schema: schema, bindings: target.bindings, rootSlots: rootSlots)
    }

    /// Whether the target's state machine needs no further advance (always true for a
    /// published instance, or a state machine with nothing to run).
    public func isSettled(_ targetName: String) -> Bool {
        targets[targetName]?.isSettled ?? true
    }

    /// Each layer's current state of the target's state machine, in layer order (empty for a
    /// published instance or a state machine the file does not describe).
    public func layerStates(_ targetName: String) -> [LayerState] {
        targets[targetName]?.stateMachine?.layerStates ?? []
    }
}
