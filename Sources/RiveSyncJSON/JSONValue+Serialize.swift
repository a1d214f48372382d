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
    @inlinable
    public func write(into out: inout some JSONOutput & ~Copyable) {
        switch self {
        case .null: JSONValue.writeLiteral("null", into: &out)
        case .bool(let b): JSONValue.writeLiteral(b ? "true" : "false", into: &out)
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

    /// Appends a literal's bytes (a `String`'s UTF-8 view would go byte by byte). Always
    /// inlined: its length is then a constant, and the copy a few moves.
    @inlinable @inline(__always)
    public static func writeLiteral(_ text: StaticString, into out: inout some JSONOutput & ~Copyable) {
        out.append(contentsOf: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes a number; integral values within 2^53 print without a fraction.
    @inlinable
    public static func writeNumber(_ n: Double, into out: inout some JSONOutput & ~Copyable) {
        guard n.isFinite else { return writeLiteral("null", into: &out) }
        if n.rounded() == n, abs(n) < 9.007_199_254_740_992e15 {
            writeInteger(Int64(n), into: &out)
        } else {
            var text = n.description
            text.withUTF8 { out.append(contentsOf: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Writes an unsigned integer as `writeNumber(Double(n))` does: its digits up to 2^53,
    /// through `Double` above (where a `Double` no longer holds every integer).
    @inlinable
    public static func writeNumber(_ n: UInt64, into out: inout some JSONOutput & ~Copyable) {
        guard n < 9_007_199_254_740_992 else { return writeNumber(Double(n), into: &out) }
        writeInteger(Int64(n), into: &out)
    }

    /// Writes an integer's decimal digits (as `String(value)` spells it, without making one).
    @inlinable
    static func writeInteger(_ value: Int64, into out: inout some JSONOutput & ~Copyable) {
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

    /// Writes a quoted, escaped string. The bytes are read once: the run before the first byte
    /// that needs escaping (all of them, usually) goes in one copy, the rest byte by byte.
    @inlinable
    public static func writeString(_ s: String, into out: inout some JSONOutput & ~Copyable) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return }
            let count = bytes.count
            var clean = 0
            // Eight bytes at a time while none of them needs escaping, then byte by byte.
            while clean &+ 8 <= count, !anyNeedsEscaping(UnsafeRawPointer(start + clean).loadUnaligned(as: UInt64.self)) {
                clean &+= 8
            }
            while clean < count, !needsEscaping(start[clean]) { clean &+= 1 }
            out.append(contentsOf: UnsafeRawBufferPointer(start: start, count: clean))
            while clean < count {
                writeEscaped(start[clean], into: &out)
                clean &+= 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes in `word` is written escaped: a byte below 0x20, a quote
    /// or a backslash (each test exact for whether some byte matches, whichever it is).
    @inlinable
    static func anyNeedsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- 0x20 &* ones) & ~word & highs
        let quote = word ^ (0x22 &* ones)
        let backslash = word ^ (0x5C &* ones)
        let quotes = (quote &- ones) & ~quote & highs
        let backslashes = (backslash &- ones) & ~backslash & highs
        return control | quotes | backslashes != 0
    }

    /// Whether a string's byte is written escaped.
    @inlinable
    static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Writes one byte of a string, escaped as JSON needs it.
    @inlinable
    static func writeEscaped(_ byte: UInt8, into out: inout some JSONOutput & ~Copyable) {
        switch byte {
        case UInt8(ascii: "\""): writeLiteral(#"\""#, into: &out)
        case UInt8(ascii: "\\"): writeLiteral(#"\\"#, into: &out)
        case 0x0A: writeLiteral(#"\n"#, into: &out)
        case 0x0D: writeLiteral(#"\r"#, into: &out)
        case 0x09: writeLiteral(#"\t"#, into: &out)
        case 0..<0x20:
            writeLiteral(#"\u00"#, into: &out)
            let hex: StaticString = "0123456789abcdef"
            out.append(hex.utf8Start[Int(byte >> 4)])
            out.append(hex.utf8Start[Int(byte & 0xF)])
        default: out.append(byte)
        }
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
