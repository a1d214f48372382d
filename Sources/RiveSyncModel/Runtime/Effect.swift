/// One change in a batch, in the words a replica needs to apply it.
public enum Change: Sendable, Hashable {
    /// A value changed. For a nested replacement the value is `.viewModel(id)` and
    /// `introduced` holds the new subtree.
    case set(instance: InstanceID, property: String, value: PropertyValue, introduced: [InstanceState])
    /// A trigger fired (its fire count goes up by one).
    case fire(instance: InstanceID, property: String)
    /// An item was inserted into a list; `introduced` holds the item's subtree.
    case listInsert(instance: InstanceID, property: String, index: Int, item: InstanceID, introduced: [InstanceState])
    /// The item at `index` was removed.
    case listRemove(instance: InstanceID, property: String, index: Int)
    /// Two items swapped places.
    case listSwap(instance: InstanceID, property: String, index: Int, with: Int)
    /// A slot got a new instance; `introduced` holds its subtree.
    case bind(slot: BindingSlot, instance: InstanceID, introduced: [InstanceState])
}

extension Change {
    /// The instance states the change brings into reach (upserted before it applies).
    public var introducedStates: [InstanceState] {
        switch self {
        case .set(_, _, _, let states), .listInsert(_, _, _, _, let states), .bind(_, _, let states): return states
        case .fire, .listRemove, .listSwap: return []
        }
    }
}

/// A change as one target sees it: the change plus the paths (from that target's slots) at
/// which it is visible, used to filter what each subscriber receives.
public struct Effect: Sendable, Hashable {
    /// Paths of the changed property (or of the slot, for a bind), at least one.
    public var paths: [String]
    public var change: Change
    /// Whether a client's command or the state machine made the change.
    public var origin: EffectOrigin

    public init(paths: [String], change: Change, origin: EffectOrigin = .command) {
        self.paths = paths
        self.change = change
        self.origin = origin
    }
}

/// An operation the advance could not apply, with the reason.
public struct RejectedCommand: Sendable, Hashable {
    public var id: UInt64
    public var error: PropertyError

    public init(id: UInt64, error: PropertyError) {
        self.id = id
        self.error = error
    }
}

/// Everything one advance did, as one target sees it.
///
/// Batches of a target have consecutive sequence numbers starting at 1; replicas that apply
/// them in order reach the source's state.
public struct ChangeBatch: Sendable, Hashable {
    /// The target (state machine or published instance) this batch belongs to.
    public var target: String
    /// 1, 2, 3, … per target.
    public var seq: UInt64
    /// Changes in the order they were applied.
    public var effects: [Effect]
    /// Ids of the target's own operations that applied, in order.
    public var applied: [UInt64]
    /// The target's own operations that were rejected, in order.
    public var rejected: [RejectedCommand]
    /// The author of each applied command that has one, by command id.
    public var authors: CommandAuthors
    /// The target's own transactions that were rejected (nothing of them applied), in order.
    public var rejectedTransactions: [RejectedTransaction]
    /// Seconds of state machine time this advance ran (0 for a batch of another target, or an
    /// advance that only applied commands).
    public var elapsed: Double
    /// Events the state machine reported during the advance, in order.
    public var events: [ReportedEvent]
    /// The layers whose current state changed during the advance, with their new state.
    public var layers: [LayerState]
    /// Whether the target's state machine needs no further advance (nothing animating, no
    /// transition in progress): an auto target stops ticking while settled.
    public var settled: Bool

    public init(
        target: String, seq: UInt64, effects: [Effect], applied: [UInt64], rejected: [RejectedCommand],
        authors: CommandAuthors = [:], rejectedTransactions: [RejectedTransaction] = [],
        elapsed: Double = 0, events: [ReportedEvent] = [], layers: [LayerState] = [], settled: Bool = true
    ) {
        self.elapsed = elapsed
        self.events = events
        self.layers = layers
        self.settled = settled
        self.target = target
        self.seq = seq
        self.effects = effects
        self.applied = applied
        self.rejected = rejected
        self.authors = authors
        self.rejectedTransactions = rejectedTransactions
    }
}
