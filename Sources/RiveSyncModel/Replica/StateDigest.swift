/// A digest of what a target shows: its bindings and every instance reachable from them.
///
/// The canonical form is: each binding (slot, id) in order, then each reachable instance in
/// id order with its view model, name and values sorted by property name (UTF-8 bytes), every value in a
/// fixed binary form. Two states with the same digest are the same state. Unreachable
/// instances do not count.
public enum StateDigest {
    /// The canonical bytes of a target's state.
    public static func canonicalBytes(bindings: [Binding], store: InstanceStore) -> [UInt8] {
        var out: [UInt8] = []
        for binding in bindings {
            put(binding.slot.description, &out)
            put(binding.instance?.rawValue ?? 0, &out)
        }
        let reachable = store.closure(of: bindings.compactMap(\.instance)).sorted()
        for id in reachable {
            guard let state = store[id] else { continue }
            put(id.rawValue, &out)
            put(state.viewModel, &out)
            put(state.name, &out)
            // By UTF-8 bytes (code points), not `String <`, which compares normalized text.
            for key in state.values.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                put(key, &out)
                put(state.values[key]!, &out)
            }
        }
        return out
    }

    /// SHA-256 of the canonical bytes, as lower-case hex.
    public static func digest(bindings: [Binding], store: InstanceStore) -> String {
        SHA256.hex(canonicalBytes(bindings: bindings, store: store))
    }

    private static func put(_ value: UInt64, _ out: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func put(_ text: String, _ out: inout [UInt8]) {
        put(UInt64(text.utf8.count), &out)
        out.append(contentsOf: text.utf8)
    }

    private static func put(_ value: PropertyValue, _ out: inout [UInt8]) {
        switch value {
        case .number(let n):
            out.append(1)
            put(UInt64(n.bitPattern), &out)
        case .string(let s):
            out.append(2)
            put(s, &out)
        case .boolean(let b):
            out.append(b ? 4 : 3)
        case .color(let c):
            out.append(5)
            put(UInt64(c), &out)
        case .enumValue(let e):
            out.append(6)
            put(e, &out)
        case .trigger(let count):
            out.append(7)
            put(count, &out)
        case .viewModel(let id):
            out.append(8)
            put(id?.rawValue ?? 0, &out)
        case .list(let items):
            out.append(9)
            put(UInt64(items.count), &out)
            items.forEach { put($0.rawValue, &out) }
        case .asset(let reference):
            out.append(10)
            put(reference?.id ?? "", &out)
            put(UInt64(reference?.byteCount ?? 0), &out)
            put(reference?.mediaType ?? "", &out)
        case .artboard(let name):
            out.append(11)
            put(name ?? "", &out)
            out.append(name == nil ? 0 : 1)
        case .symbolListIndex(let index):
            out.append(12)
            put(UInt64(index), &out)
        }
    }
}
