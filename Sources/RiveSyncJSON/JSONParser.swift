/// Why a text is not accepted as JSON.
public enum JSONParseError: Error, Sendable, Hashable {
    /// Not valid JSON (RFC 8259) at this byte offset.
    case syntax(offset: Int, reason: String)
    /// Nesting deeper than the limit.
    case tooDeep(limit: Int)
    /// The text is longer than the limit.
    case tooLarge(limit: Int)
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes with byte and depth limits.
///
/// Strict means: no trailing commas, no comments, no leading zeros, no lone surrogates,
/// no invalid UTF-8, no control characters in strings, one value per document (whitespace
/// around it allowed). Numbers are read as `Double`; a number that overflows `Double`
/// is rejected rather than turned into infinity.
public struct JSONParser {
    public var maxDepth: Int
    public var maxBytes: Int

    public init(maxDepth: Int = 64, maxBytes: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }

    /// Parses one JSON document.
    public func parse<Bytes: Collection>(_ bytes: Bytes) throws(JSONParseError) -> JSONValue
    where Bytes.Element == UInt8 {
        guard bytes.count <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        // Contiguous bytes (a message's array, the usual input) are read where they are.
        let result = bytes.withContiguousStorageIfAvailable { buffer in Result { () throws(JSONParseError) in try parse(buffer) } }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in try parse(buffer) }
    }

    /// Parses one JSON document from an array (a message's bytes), read where it is. Called
    /// from another module, the generic `parse` looks its types up on every call.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in try parse(buffer) }
    }

    private func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var reader = Reader(bytes: buffer, maxDepth: maxDepth)
        reader.skipWhitespace()
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == buffer.count else { throw reader.error("trailing characters") }
        return value
    }

    /// Parses one JSON document from a string.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

extension JSONParser {
    /// Reads a document that is one object of scalar members (strings, numbers, `true`, `false`,
    /// `null`; no nested object or array) without making a tree: `member` gets each key's UTF-8
    /// bytes and its value, in document order, and returns false to stop. True when the whole
    /// document was read so; false when it is anything else (a key written with an escape or
    /// outside ASCII too), is not valid JSON or is past the limits, or `member` stopped — then
    /// the members seen so far mean nothing, and `parse` reads the document (or gives its
    /// error). The values are those `parse` gives (`JSONFlatValue.value`); a string without
    /// escapes is handed over as its bytes, made a `String` only if `member` asks.
    public func readFlatObject(_ bytes: [UInt8], _ member: (UnsafeBufferPointer<UInt8>, JSONFlatValue) -> Bool) -> Bool {
        guard bytes.count <= maxBytes, maxDepth >= 1 else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer, maxDepth: maxDepth)
            do { return try reader.readFlatObject(member) } catch {
                // Not valid JSON: `parse` finds the same error and reports it.
                return false
            }
        }
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ reason: String) -> JSONParseError { .syntax(offset: index, reason: reason) }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            index += 1
        }
    }

    mutating func expectLiteral(_ literal: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("truncated literal") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw error("invalid literal")
        }
        index += count
        return value
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expectLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try expectLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try expectLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    /// `JSONParser.readFlatObject`: false as soon as the document is not a flat object (an
    /// error thrown only for invalid JSON inside a value).
    mutating func readFlatObject(_ member: (UnsafeBufferPointer<UInt8>, JSONFlatValue) -> Bool) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard current == UInt8(ascii: "{") else { return false }
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
        } else {
            members: while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { return false }
                let keyStart = index + 1
                let keyEnd = plainEnd(from: keyStart)
                guard keyEnd < bytes.count, bytes[keyEnd] == UInt8(ascii: "\"") else { return false }
                index = keyEnd + 1
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return false }
                index += 1
                skipWhitespace()
                guard let first = current, first != UInt8(ascii: "{"), first != UInt8(ascii: "[") else { return false }
                let value = try flatValue()
                guard member(UnsafeBufferPointer(rebasing: bytes[keyStart..<keyEnd]), value) else { return false }
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    break members
                default: return false
                }
            }
        }
        skipWhitespace()
        return index == bytes.count
    }

    /// A flat object's member value (not an object or an array), the index on its first byte: a
    /// string of printable ASCII without escapes as its bytes, anything else parsed.
    mutating func flatValue() throws(JSONParseError) -> JSONFlatValue {
        if current == UInt8(ascii: "\"") {
            let end = plainEnd(from: index + 1)
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                defer { index = end + 1 }
                return .plainString(UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]))
            }
        }
        return .parsed(try parseValue(depth: 1))
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        // Room for a request's members at once (a set has five), not grown one at a time.
        if current != UInt8(ascii: "}") { members.reserveCapacity(8) }
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append((key, value))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        let negative = current == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw error("expected a digit")
        }
        let integerStart = index
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = current, next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") {
                throw error("leading zero")
            }
        } else {
            skipDigits()
        }
        // An integer of at most 15 digits (an id, a count, most values) is exact as a Double:
        // its digits are summed instead of making a string for `Double(_:)`, with the same value.
        if index - integerStart <= 15, current != UInt8(ascii: "."), current != UInt8(ascii: "e"), current != UInt8(ascii: "E") {
            var magnitude: UInt64 = 0
            for position in integerStart..<index { magnitude = magnitude * 10 + UInt64(bytes[position] - UInt8(ascii: "0")) }
            return .number(negative ? -Double(magnitude) : Double(magnitude))
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw error("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return .number(value)
    }

    @discardableResult
    mutating func skipDigits() -> Int {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    /// A string, the index on its opening quote. Runs of raw bytes become text in one
    /// validating step (a string without escapes, the usual case, in exactly one); escapes are
    /// appended between runs.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        // The usual string, printable ASCII to its closing quote, in one pass: no escape to
        // append and nothing to validate.
        let end = plainEnd(from: index)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            defer { index = end + 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
        }
        var text = ""
        var runStart = index
        while true {
            guard let byte = current else { throw error("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                try appendRun(from: runStart, to: index, into: &text)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") {
                try appendRun(from: runStart, to: index, into: &text)
                index += 1
                text.unicodeScalars.append(try parseEscape())
                runStart = index
                continue
            }
            guard byte >= 0x20 else { throw error("control character in string") }
            index += 1
        }
    }

    /// Where a run of a string's printable ASCII bytes that starts at `start` ends: at a quote,
    /// a backslash, a control character, a byte outside ASCII, or the end of the input. Read
    /// eight bytes at a time while eight are left (a byte at a time cost ~8 instructions a
    /// byte, most of a plain `set`'s parse), then byte by byte.
    func plainEnd(from start: Int) -> Int {
        var end = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while end + 8 <= bytes.count {
                let stops = Self.stops(in: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)))
                if stops != 0 { return end + stops.trailingZeroBitCount / 8 }
                end += 8
            }
        }
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20,
            bytes[end] < 0x80
        {
            end += 1
        }
        return end
    }

    /// The bytes of eight (the first in the low byte) that end a plain run, each marked by its
    /// high bit: exact up to the first marked byte, which is all `plainEnd` reads (a byte that
    /// compares below its bound borrows from the next, which may mark that one too).
    static func stops(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        // A byte below n marks its high bit in (x - n each) & ~x: a zero byte of `quotes` or
        // `backslashes` (below 1), a control character of `word` (below 0x20).
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word
        // A byte outside ASCII has its own high bit set.
        return (quote | backslash | control | word) & (ones &* 0x80)
    }

    /// Validates a run of raw UTF-8 bytes and appends it. An ASCII run, the usual case, needs
    /// no validation (the generic validating initialiser cost more than the rest of the parse).
    func appendRun(from start: Int, to end: Int, into text: inout String) throws(JSONParseError) {
        guard start < end else { return }
        let bytes = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let run: String
        if !bytes.contains(where: { $0 >= 0x80 }) {
            run = String(decoding: bytes, as: UTF8.self)
        } else if let valid = String(validating: bytes, as: UTF8.self) {
            run = valid
        } else {
            throw JSONParseError.syntax(offset: start, reason: "invalid UTF-8")
        }
        if text.isEmpty { text = run } else { text += run }
    }

    mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800...0xDBFF).contains(high) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("lone high surrogate") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate") }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(value)!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("lone low surrogate") }
            return scalar
        default:
            throw error("invalid escape")
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
