/// What a target is: a state machine of an artboard, or a published instance.
public enum TargetKind: Sendable, Hashable {
    case stateMachine(artboard: String, stateMachine: String)
    case publishedInstance
}

/// A state machine or published instance: named bindings, a queue of operations and the
/// sequence number of its last batch.
public struct Target: Sendable {
    public let name: String
    public let kind: TargetKind
    /// Slots in a fixed order: main first, then globals in file order.
    public internal(set) var bindings: [Binding]
    public internal(set) var queue: [QueuedCommand] = []
    /// The seq of the last batch (0 before the first).
    public internal(set) var seq: UInt64 = 0
    /// How many deleted targets of this file had this name before it (0 for the first). Seqs
    /// start again at 1 for each generation, so a cursor is only meaningful within one.
    public internal(set) var generation = 0
    /// The running state machine of a `.stateMachine` target whose file describes it (nil for
    /// a published instance, or a file without a graph).
    public internal(set) var stateMachine: StateMachineInstance?

    init(name: String, kind: TargetKind, bindings: [Binding]) {
        self.name = name
        self.kind = kind
        self.bindings = bindings
    }

    /// The instance in a slot, if bound.
    public func instance(in slot: BindingSlot) -> InstanceID? {
        bindings.first { $0.slot == slot }?.instance
    }

    /// Bound slots as (path prefix, instance) pairs, in slot order.
    var roots: [(prefix: String, id: InstanceID)] {
        bindings.compactMap { binding in binding.instance.map { (binding.slot.pathPrefix, $0) } }
    }
}

/// A target's state at one seq: its bindings and every instance reachable from them. A
/// replica starts from one of these.
public struct TargetSnapshot: Sendable, Hashable {
    public var target: String
    public var seq: UInt64
    public var bindings: [Binding]
    /// Reachable instances, in visit order from the slots.
    public var instances: [InstanceState]

    public init(target: String, seq: UInt64, bindings: [Binding], instances: [InstanceState]) {
        self.target = target
        self.seq = seq
        self.bindings = bindings
        self.instances = instances
    }
}
