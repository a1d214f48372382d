/// What one state machine step did beyond the effects it recorded.
struct StateMachineStep {
    var events: [ReportedEvent] = []
    /// Layers whose state changed, with their new state.
    var layers: [LayerState] = []
    var settled = true
}

extension FileRuntime {
    /// Whether advancing the target by `elapsed` with an empty queue could change anything
    /// (its state machine is not settled). A settled target's empty advance costs nothing.
    func needsStateMachineStep(_ targetName: String, elapsed: Double) -> Bool {
        !isSettled(targetName)
    }

    /// Runs the target's state machine for `elapsed` seconds after its queue applied,
    /// recording the changes it makes (origin `.stateMachine`) for every target that sees them.
    mutating func stepStateMachine(_ targetName: String, elapsed: Double, effects: inout [String: [Effect]]) -> StateMachineStep {
        StateMachineStep()
    }

    /// Whether the target's state machine needs no further advance (always true for a
    /// published instance, or a state machine with nothing to run).
    public func isSettled(_ targetName: String) -> Bool {
        true
    }

    /// Each layer's current state of the target's state machine, in layer order (empty for a
    /// published instance or a state machine the file does not describe).
    public func layerStates(_ targetName: String) -> [LayerState] {
        []
    }
}
