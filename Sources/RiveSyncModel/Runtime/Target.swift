/// What a target is: a state machine of an artboard, or a published instance.
public enum TargetKind: Sendable, Hashable {
    case stateMachine(artboard: String, stateMachine: String)
    case publishedInstance
}

/// A state machine or published instance: named bindings, a queue of operations and the
/// sequence number of its last batch.
public struct Target: Sendable {
    /// The fields, shared by copies of the target until one of them changes: the runtime
    /// changes its targets in place in a dictionary, and reads them out of it, several times
    /// per command.
    private var storage: SharedFields<Fields>

    /// The fields, unshared first: a copy of the target keeps the fields it had.
    private var unique: UnsafeMutablePointer<Fields> { mutating get { SharedFields.unique(&storage) } }

    public var name: String { storage.fields.pointee.name }
    public var kind: TargetKind { storage.fields.pointee.kind }
    /// Slots in a fixed order: main first, then globals in file order.
    public internal(set) var bindings: [Binding] {
        _read { yield storage.fields.pointee.bindings }
        _modify { yield &unique.pointee.bindings }
    }
    public internal(set) var queue: [QueuedCommand] {
        _read { yield storage.fields.pointee.queue }
        _modify { yield &unique.pointee.queue }
    }
    /// The seq of the last batch (0 before the first).
    public internal(set) var seq: UInt64 {
        _read { yield storage.fields.pointee.seq }
        _modify { yield &unique.pointee.seq }
    }
    /// How many deleted targets of this file had this name before it (0 for the first). Seqs
    /// start again at 1 for each generation, so a cursor is only meaningful within one.
    public internal(set) var generation: Int {
        _read { yield storage.fields.pointee.generation }
        _modify { yield &unique.pointee.generation }
    }
    /// The running state machine of a `.stateMachine` target whose file describes it (nil for
    /// a published instance, or a file without a graph).
    public internal(set) var stateMachine: StateMachineInstance? {
        _read { yield storage.fields.pointee.stateMachine }
        _modify {
            let fields = unique
            // Noted however the access ends (a throwing change of the state machine too).
            defer { fields.pointee.noteStateMachine() }
            yield &fields.pointee.stateMachine
        }
    }

    /// Whether the target has a running state machine (kept with it: asking the optional
    /// copies the whole state machine).
    var hasStateMachine: Bool { storage.fields.pointee.hasStateMachine }

    /// Whether the target's state machine needs no further advance (true without one; kept
    /// with it, as `hasStateMachine`).
    var isSettled: Bool { storage.fields.pointee.isSettled }

    init(name: String, kind: TargetKind, bindings: [Binding]) {
        storage = SharedFields(Fields(name: name, kind: kind, bindings: bindings))
    }

    /// What a target holds (see the properties of the same names).
    private struct Fields {
        let name: String
        let kind: TargetKind
        var bindings: [Binding]
        var queue: [QueuedCommand] = []
        var seq: UInt64 = 0
        var generation = 0
        var stateMachine: StateMachineInstance?
        /// `stateMachine != nil`, as of its last change.
        var hasStateMachine = false
        /// `stateMachine?.isSettled ?? true`, as of its last change.
        var isSettled = true

        /// Notes what the state machine is now, after a change.
        mutating func noteStateMachine() {
            hasStateMachine = stateMachine != nil
            isSettled = stateMachine?.isSettled ?? true
        }
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
