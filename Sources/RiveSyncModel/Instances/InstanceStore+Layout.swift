/// Where a property's value lies in a store: found once by hashing the instance's id and the
/// property's name (a set's path, resolved when the set is checked), then reached again by
/// position, without hashing, for as long as the store holds the same instances with the same
/// properties (`InstanceStore.layout`) — the set's change applies at the next advance there.
extension InstanceStore {
    /// An instance's position in `instances`.
    typealias InstancePosition = [InstanceID: InstanceState].Index
    /// A value's position in its instance's `values`.
    typealias ValuePosition = [String: PropertyValue].Index

    /// Stands for which instances a store holds and which properties each has. Replaced by a
    /// new one whenever either changes (an instance added, replaced or removed, a property
    /// added), and only then: a value changed in place moves nothing, in this store and in
    /// every copy of it that kept the same layout, so positions found under this layout hold
    /// wherever it is still the layout.
    final class Layout: Sendable {}

    /// The value a resolution found, by its positions while they hold (nil once the layout
    /// changed, or when the resolution has none).
    func value(foundBy resolved: ResolvedProperty) -> PropertyValue? {
        guard let (instance, value) = resolved.positions(under: layout) else { return nil }
        return instances.values[instance].values.values[value]
    }

    /// `replaceValue(_:of:property:)` where `found` found that instance's property, by its
    /// positions while they hold (by name when they do not, or without `found`).
    mutating func replaceValue(
        _ value: PropertyValue, foundBy found: ResolvedProperty?, of id: InstanceID, property: String
    ) throws(ReplicaError) {
        guard let (instance, position) = found?.positions(under: layout) else { return try replaceValue(value, of: id, property: property) }
        replace(value, instance: instance, value: position, of: id, property: property)
    }
}
