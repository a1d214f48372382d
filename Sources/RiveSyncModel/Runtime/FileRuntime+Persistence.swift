import RiveSyncJSON

/// Everything needed to rebuild a `FileRuntime` as it was (queues excluded: queued commands
/// are not acknowledged yet, so they need not survive a restart).
public struct FileRuntimeState: Sendable, Hashable {
    /// A target as persisted.
    public struct TargetState: Sendable, Hashable {
        public var name: String
        public var kind: TargetKind
        public var bindings: [Binding]
        public var seq: UInt64
        public var generation: Int
        /// The running state machine's state (`StateMachineInstance.persistentJSON`), nil for
        /// a target without one.
        public var stateMachine: JSONValue?

        public init(
            name: String, kind: TargetKind, bindings: [Binding], seq: UInt64, generation: Int = 0, stateMachine: JSONValue? = nil
        ) {
            self.name = name
            self.kind = kind
            self.bindings = bindings
            self.seq = seq
            self.generation = generation
            self.stateMachine = stateMachine
        }
    }

    public var nextInstanceID: UInt64
    /// Every live instance, in id order.
    public var instances: [InstanceState]
    /// Targets in creation order.
    public var targets: [TargetState]
    /// Deleted target names and their last generation.
    public var retiredTargets: [String: Int]

    public init(nextInstanceID: UInt64, instances: [InstanceState], targets: [TargetState], retiredTargets: [String: Int] = [:]) {
        self.nextInstanceID = nextInstanceID
        self.instances = instances
        self.targets = targets
        self.retiredTargets = retiredTargets
    }
}

extension FileRuntime {
    /// The state to persist in a snapshot.
    public var persistentState: FileRuntimeState {
        FileRuntimeState(
            nextInstanceID: nextInstanceID, instances: store.instances.keys.sorted().map { store.instances[$0]! },
            targets: targetNames.map { name in
                let target = targets[name]!
                return FileRuntimeState.TargetState(
                    name: name, kind: target.kind, bindings: target.bindings, seq: target.seq, generation: target.generation,
                    stateMachine: target.stateMachine?.persistentJSON)
            }, retiredTargets: retiredTargets)
    }

    /// A runtime restored from a snapshot's state.
    public init(
        schema: FileSchema, limits: ModelLimits = ModelLimits(), coalescing: CoalescingPolicy = .latestValue,
        restoring state: FileRuntimeState
    ) {
        self.init(schema: schema, limits: limits, coalescing: coalescing, firstInstanceID: state.nextInstanceID)
        for instance in state.instances { store.upsert(instance) }
        for persisted in state.targets {
            var target = Target(name: persisted.name, kind: persisted.kind, bindings: persisted.bindings)
            target.seq = persisted.seq
            addTarget(target)
            targets[persisted.name]!.generation = persisted.generation
            attachStateMachine(to: persisted.name)
            if let saved = persisted.stateMachine, var machine = targets[persisted.name]!.stateMachine {
                // A state that does not fit the file (it changed) leaves the state machine at
                // its entry states, bound afresh; the restart is told (`restartedStateMachines`).
                do throws(StateMachinePersistenceError) {
                    try machine.restore(from: saved)
                    targets[persisted.name]!.stateMachine = machine
                } catch {
                    restartedStateMachines[persisted.name] = "\(error)"
                }
            }
        }
        retiredTargets = state.retiredTargets
    }
}
