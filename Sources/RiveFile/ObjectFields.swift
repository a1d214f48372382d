/// The properties of the object being read, for the object types this reader keeps.
///
/// Objects hold few properties and may repeat a key (the last one wins, as in the runtime), so
/// a small list searched from the end beats a dictionary.
struct ObjectFields {
    private var fields: [(key: Int, value: FieldValue)] = []

    mutating func removeAll() { fields.removeAll(keepingCapacity: true) }

    mutating func append(key: Int, value: FieldValue) { fields.append((key, value)) }

    /// The last value stored under `key`, if any.
    func value(_ key: Int) -> FieldValue? {
        fields.last { $0.key == key }?.value
    }

    /// A uint field as a 32-bit index (the runtime's width); `none` when absent or not a uint.
    func index(_ key: Int, default none: UInt32) -> UInt32 {
        guard case .uint(let raw) = value(key) else { return none }
        return UInt32(truncatingIfNeeded: raw)
    }

    /// A string field's payload range; nil when absent or not a string.
    func bytes(_ key: Int) -> Range<Int>? {
        guard case .bytes(let range) = value(key) else { return nil }
        return range
    }
}
