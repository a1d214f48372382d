/// How a property value is laid out on the wire, which is all a reader needs to step over it.
enum FieldType: UInt8, Sendable {
    /// A varuint (uint, Id, int, uint64; bools when the ToC lists them).
    case uint = 0
    /// A varuint length, then that many bytes (string or bytes).
    case string = 1
    /// Four bytes, little-endian float32.
    case float = 2
    /// Four bytes, little-endian 0xAARRGGBB.
    case color = 3
    /// One byte. Only the built-in table uses it: the runtime reads its known bools as one byte,
    /// while the ToC cannot tell a bool from a uint.
    case bool = 4

    /// The field type a ToC 2-bit code names.
    init(tocCode: UInt32) {
        switch tocCode & 3 {
        case 0: self = .uint
        case 1: self = .string
        case 2: self = .float
        default: self = .color
        }
    }
}

/// A value read from the object stream. Strings and bytes stay as ranges of the input until
/// someone asks for their text.
enum FieldValue {
    case uint(UInt64)
    case bytes(Range<Int>)
    case float(Float)
    case color(UInt32)
}
