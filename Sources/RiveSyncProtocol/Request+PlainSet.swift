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
        var typed = false
        var identified = false
        var id: JSONValue?
        var target: String?
        var path: String?
        var value: JSONValue?
        // A repeated member (`decode` reads the first) or one that is not a plain set's (`decode`
        // gives its error, or reads another request) stops the reading: `decode` has it.
        let read = parser.readFlatObject(bytes) { key, member in
            if Self.named(key, "type") {
                guard !typed, member.isString("set") else { return false }
                typed = true
            } else if Self.named(key, "id") {
                guard !identified else { return false }
                identified = true
                switch member.value {
                case .null: break
                case let written where written.stringValue != nil || written.intValue != nil: id = written
                default: return false
                }
            } else if Self.named(key, "target") {
                guard target == nil, let text = member.stringValue else { return false }
                target = text
            } else if Self.named(key, "path") {
                guard path == nil, let text = member.stringValue else { return false }
                path = text
            } else if Self.named(key, "value") {
                guard value == nil else { return false }
                value = member.value
            }
            // Any other member is one `decode` does not read for a `set`.
            return true
        }
        // Moved out of the variables the reading shared, not copied.
        guard read, typed, let target = target.take(), let path = path.take(), let value = value.take() else { return nil }
        return Request(id: id.take(), body: .set(target: target, path: ParsedPath(path), value: value))
    }

    /// Whether a key's bytes are `name`'s.
    private static func named(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount else { return false }
        let bytes = name.utf8Start
        for offset in 0..<key.count where key[offset] != bytes[offset] { return false }
        return true
    }
}
