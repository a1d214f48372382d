/// A member's value as `JSONParser.readFlatObject` hands it over: a string written as printable
/// ASCII without escapes (the usual one) still as its bytes, so that a reader that only compares
/// it, or does not keep it, makes no `String`; any other scalar parsed.
///
/// The bytes are the message's own and valid only during the call that hands them over.
public enum JSONFlatValue {
    /// A string of printable ASCII without escapes: its bytes between the quotes.
    case plainString(UnsafeBufferPointer<UInt8>)
    /// Any other scalar (a string with escapes or outside ASCII, a number, `true`, `false`,
    /// `null`), as `parse` gives it.
    case parsed(JSONValue)

    /// The value `parse` gives.
    public var value: JSONValue {
        switch self {
        case .plainString(let bytes): .string(Self.text(of: bytes))
        case .parsed(let value): value
        }
    }

    /// The string, if the value is one.
    public var stringValue: String? {
        switch self {
        case .plainString(let bytes): Self.text(of: bytes)
        case .parsed(let value): value.stringValue
        }
    }

    /// Whether the value is the string `text` (printable ASCII), without making a `String`.
    public func isString(_ text: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard case .plainString(let bytes) = self else {
            // With escapes the same text may still be written (`"s\u0065t"`).
            if case .parsed(.string(let parsed)) = self { return parsed.utf8.elementsEqual(expected) }
            return false
        }
        guard bytes.count == expected.count else { return false }
        for offset in 0..<bytes.count where bytes[offset] != expected[offset] { return false }
        return true
    }

    /// Printable ASCII as a `String`. Written into the string's own storage, a short one (15
    /// bytes or fewer, held inline) is not checked again for valid UTF-8 as `String(decoding:as:)`
    /// checks it (~110 instructions instead of ~200); a longer one is checked either way, and
    /// costs less so.
    private static func text(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count <= 15 else { return String(decoding: bytes, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: bytes.count) { $0.initialize(fromContentsOf: bytes) }
    }
}
