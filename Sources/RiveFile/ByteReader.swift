/// Reads the `.riv` primitives from a byte array, checking every read against the end.
///
/// No read allocates from a length it has not first checked against the bytes that remain.
/// `offset` is an index into `bytes`; errors report positions counted from its start.
struct ByteReader {
    /// The largest length a string or byte field may claim before it counts as absurd rather
    /// than merely truncated.
    static let maxFieldLength: UInt64 = UInt64(UInt32.max)

    let bytes: ArraySlice<UInt8>
    private(set) var offset: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.offset = bytes.startIndex
    }

    var isAtEnd: Bool { offset >= bytes.endIndex }
    var remaining: Int { bytes.endIndex - offset }

    /// `index` counted from the start of the input, for error messages.
    func position(_ index: Int) -> Int { index - bytes.startIndex }

    /// Steps over `count` bytes the caller has checked are there.
    mutating func skip(_ count: Int) {
        offset += min(count, remaining)
    }

    /// One byte.
    mutating func readByte(_ what: StaticString) throws(RiveFileError) -> UInt8 {
        guard offset < bytes.endIndex else { throw .truncated(offset: position(offset), what: "\(what)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// An unsigned LEB128 number of at most 64 bits.
    mutating func readVarUInt(_ what: StaticString) throws(RiveFileError) -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.endIndex else { throw .truncated(offset: position(start), what: "\(what)") }
            let byte = bytes[offset]
            offset += 1
            let group = UInt64(byte & 0x7F)
            if shift == 63, group > 1 || byte & 0x80 != 0 {
                throw .invalid(offset: position(start), reason: "\(what) does not fit in 64 bits")
            }
            result |= group << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A little-endian 32-bit word (colors and the ToC bitmap).
    mutating func readUInt32(_ what: StaticString) throws(RiveFileError) -> UInt32 {
        guard remaining >= 4 else { throw .truncated(offset: position(offset), what: "\(what)") }
        let value =
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
        offset += 4
        return value
    }

    /// A little-endian IEEE-754 float32.
    mutating func readFloat32(_ what: StaticString) throws(RiveFileError) -> Float {
        Float(bitPattern: try readUInt32(what))
    }

    /// A length-prefixed string or byte field: the range of its payload, which is skipped.
    mutating func readLengthPrefixed(_ what: StaticString) throws(RiveFileError) -> Range<Int> {
        let start = offset
        let length = try readVarUInt(what)
        guard length <= Self.maxFieldLength else {
            throw .invalid(offset: position(start), reason: "\(what) claims an absurd length of \(length) bytes")
        }
        guard length <= UInt64(remaining) else {
            throw .truncated(offset: position(start), what: "\(what) of \(length) bytes")
        }
        let range = offset..<(offset + Int(length))
        offset = range.upperBound
        return range
    }
}
