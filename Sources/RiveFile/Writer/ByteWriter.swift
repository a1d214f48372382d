/// Writes the `.riv` primitives (the counterpart of `ByteReader`): LEB128 numbers,
/// little-endian 32-bit words, length-prefixed strings and bytes.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func varUInt(_ value: UInt64) {
        var rest = value
        repeat {
            let group = UInt8(rest & 0x7F)
            rest >>= 7
            bytes.append(rest == 0 ? group : group | 0x80)
        } while rest != 0
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func string(_ text: String) {
        varUInt(UInt64(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    mutating func raw(_ data: [UInt8]) {
        bytes.append(contentsOf: data)
    }
}
