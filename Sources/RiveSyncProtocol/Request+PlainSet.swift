import RiveSyncJSON
import RiveSyncModel

extension Request {
    /// A `set` read straight from its message's bytes, without the `JSONValue` tree that
    /// `decode` reads (the most frequent request; bench/README.md, "A set's parse, check and
    /// apply in the model"): the same request `decode` gives for the document `parser` parses,
    /// or nil when the message is not a plain `set` — one object of scalar members (the value
    /// a string, number, Boolean or null), each key written once and without escapes, its `id`
    /// absent, null, an integer or a string. Then `parser.parse` and `decode` read it, and give
    /// its error if it has one.
    public static func plainSet(_ bytes: [UInt8], parser: JSONParser) -> Request? {
        var type: JSONValue?
        var id: JSONValue?
        var target: JSONValue?
        var path: JSONValue?
        var value: JSONValue?
        let read = parser.readFlatObject(bytes) { key, member in
            // A repeated member: `decode` reads the first, so it is left to `decode`.
            func take(_ field: inout JSONValue?) -> Bool {
                guard field == nil else { return false }
                field = member
                return true
            }
            if Self.named(key, "type") { return take(&type) }
            if Self.named(key, "id") { return take(&id) }
            if Self.named(key, "target") { return take(&target) }
            if Self.named(key, "path") { return take(&path) }
            if Self.named(key, "value") { return take(&value) }
            // A member `decode` does not read for a `set`.
            return true
        }
        guard read, case .string("set") = type, case .string(let target) = target, case .string(let path) = path, let value
        else { return nil }
        switch id {
        case nil, .null?: id = nil
        case .string?: break
        case let number? where number.intValue != nil: break
        default: return nil
        }
        return Request(id: id, body: .set(target: target, path: ParsedPath(path), value: value))
    }

    /// Whether a key's bytes are `name`'s.
    private static func named(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount else { return false }
        let bytes = name.utf8Start
        for offset in 0..<key.count where key[offset] != bytes[offset] { return false }
        return true
    }
}
