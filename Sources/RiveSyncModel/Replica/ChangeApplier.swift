/// Why a replica could not apply a batch. A replica that sees one of these has diverged or
/// skipped a batch, and must start again from a fresh snapshot.
public enum ReplicaError: Error, Sendable, Hashable {
    /// The batch is not the next one (expected seq, received seq).
    case outOfOrder(expected: UInt64, received: UInt64)
    /// The batch is for another target.
    case wrongTarget(expected: String, received: String)
    /// A change names an instance the replica does not hold.
    case unknownInstance(InstanceID)
    /// A change does not fit the replica's state (e.g. a list index out of range).
    case invalidChange(String)

    /// The error for a change to a property an instance does not have.
    static func noProperty(_ id: InstanceID, _ property: String) -> ReplicaError {
        .invalidChange("\(id) has no property '\(property)'")
    }
}

/// Applies changes to an instance store and its bindings. This one function is used by the
/// source during an advance and by every replica, which is what makes them converge.
enum ChangeApplier {
    /// `found`: the source's resolution that found a `set`'s value (it applies where the
    /// value lies, `InstanceStore.Layout`; replicas find it by name).
    static func apply(
        _ change: Change, to store: inout InstanceStore, bindings: inout [Binding], found: ResolvedProperty? = nil
    ) throws(ReplicaError) {
        switch change {
        case .set(let id, let property, let value, let introduced):
            introduced.forEach { store.upsert($0) }
            try store.replaceValue(value, foundBy: found, of: id, property: property)
        case .fire(let id, let property):
            guard case .trigger(let count) = try current(id, property, in: store) else {
                throw .invalidChange("\(id).\(property) is not a trigger")
            }
            store.setValue(.trigger(count &+ 1), of: id, property: property)
        case .listInsert(let id, let property, let index, let item, let introduced):
            introduced.forEach { store.upsert($0) }
            var items = try list(id, property, in: store)
            guard index >= 0, index <= items.count else { throw .invalidChange("insert at \(index) of \(items.count)") }
            items.insert(item, at: index)
            store.setValue(.list(items), of: id, property: property)
        case .listRemove(let id, let property, let index):
            var items = try list(id, property, in: store)
            guard items.indices.contains(index) else { throw .invalidChange("remove at \(index) of \(items.count)") }
            items.remove(at: index)
            store.setValue(.list(items), of: id, property: property)
        case .listSwap(let id, let property, let a, let b):
            var items = try list(id, property, in: store)
            guard items.indices.contains(a), items.indices.contains(b) else {
                throw .invalidChange("swap \(a) and \(b) of \(items.count)")
            }
            items.swapAt(a, b)
            store.setValue(.list(items), of: id, property: property)
        case .bind(let slot, let id, let introduced):
            introduced.forEach { store.upsert($0) }
            guard store[id] != nil else { throw .unknownInstance(id) }
            store.bindingsChanged()
            if let at = bindings.firstIndex(where: { $0.slot == slot }) {
                bindings[at].instance = id
            } else {
                bindings.append(Binding(slot: slot, instance: id))
            }
        }
    }

    private static func current(_ id: InstanceID, _ property: String, in store: InstanceStore) throws(ReplicaError) -> PropertyValue {
        guard let state = store[id] else { throw .unknownInstance(id) }
        guard let value = state.values[property] else { throw .noProperty(id, property) }
        return value
    }

    private static func list(_ id: InstanceID, _ property: String, in store: InstanceStore) throws(ReplicaError) -> [InstanceID] {
        guard case .list(let items) = try current(id, property, in: store) else {
            throw .invalidChange("\(id).\(property) is not a list")
        }
        return items
    }
}
