extension JSONValue {
    /// Compact, deterministic UTF-8 JSON: members in order, no spaces, integers without a
    /// fraction, other numbers in Swift's shortest round-trip form, `/` not escaped.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(into: &out)
        return out
    }

    /// The compact JSON text.
    public var jsonText: String { String(decoding: serialized(), as: UTF8.self) }

    /// Appends the compact JSON form of this value.
    public func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): JSONValue.writeNumber(n, into: &out)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Writes a number; integral values within 2^53 print without a fraction.
    public static func writeNumber(_ n: Double, into out: inout [UInt8]) {
        guard n.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if n.rounded() == n, abs(n) < 9.007_199_254_740_992e15 {
            writeInteger(Int64(n), into: &out)
        } else {
            out.append(contentsOf: n.description.utf8)
        }
    }

    /// Writes an unsigned integer as `writeNumber(Double(n))` does: its digits up to 2^53,
    /// through `Double` above (where a `Double` no longer holds every integer).
    public static func writeNumber(_ n: UInt64, into out: inout [UInt8]) {
        guard n < 9_007_199_254_740_992 else { return writeNumber(Double(n), into: &out) }
        writeInteger(Int64(n), into: &out)
    }

    /// Writes an integer's decimal digits (as `String(value)` spells it, without making one).
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        guard magnitude >= 10 else { return out.append(UInt8(ascii: "0") + UInt8(magnitude)) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 19 digits at most, written from the end
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Writes a quoted, escaped string.
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // A string with nothing to escape, the usual case, goes in one copy of its bytes.
        let copied = s.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Indented JSON text for humans (two spaces), same member order.
    public func prettyText(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1)
        let closePad = String(repeating: "  ", count: indent)
        switch self {
        case .array(let elements) where !elements.isEmpty:
            let inner = elements.map { pad + $0.prettyText(indent: indent + 1) }
            return "[\n" + inner.joined(separator: ",\n") + "\n" + closePad + "]"
        case .object(let members) where !members.isEmpty:
            let inner = members.map { key, value in
                pad + JSONValue.string(key).jsonText + ": " + value.prettyText(indent: indent + 1)
            }
            return "{\n" + inner.joined(separator: ",\n") + "\n" + closePad + "}"
        default:
            return jsonText
        }
    }
}
