/// A copy of one target's state kept by applying its batches in order: what a client
/// library holds so that reads match the last batch it saw.
///
/// Start from a snapshot, then `apply` every batch with the next seq. The replica uses the
/// same change-applying code as the source, so after the same batches it has the same digest.
public struct Replica: Sendable {
    public let target: String
    /// The seq of the last batch applied (or of the snapshot).
    public private(set) var seq: UInt64
    public private(set) var bindings: [Binding]
    public private(set) var store = InstanceStore()

    /// A replica at the snapshot's state.
    public init(snapshot: TargetSnapshot) {
        target = snapshot.target
        seq = snapshot.seq
        bindings = snapshot.bindings
        snapshot.instances.forEach { store.upsert($0) }
    }

    /// Applies the next batch. A batch with the wrong seq or target, or one that does not fit,
    /// leaves the replica unchanged and throws.
    public mutating func apply(_ batch: ChangeBatch) throws(ReplicaError) {
        guard batch.target == target else { throw .wrongTarget(expected: target, received: batch.target) }
        guard batch.seq == seq + 1 else { throw .outOfOrder(expected: seq + 1, received: batch.seq) }
        var newStore = store
        var newBindings = bindings
        for effect in batch.effects {
            try ChangeApplier.apply(effect.change, to: &newStore, bindings: &newBindings)
        }
        store = newStore
        bindings = newBindings
        seq = batch.seq
    }

    /// The state digest (the same function the source uses).
    public var digest: String { StateDigest.digest(bindings: bindings, store: store) }

    /// The instance bound in a slot.
    public func instance(in slot: BindingSlot) -> InstanceID? {
        bindings.first { $0.slot == slot }?.instance
    }
}
