import RiveSyncJSON
import Testing

/// A string's run of plain bytes (printable ASCII) is found eight bytes at a time while eight
/// are left, then byte by byte: whatever ends it (a quote, an escape, a control character, a
/// byte outside ASCII) ends it where it stands, in the first eight bytes, in a later eight or in
/// the bytes after the last whole eight.
@Suite struct JSONStringTests {
    /// How a string's text is written in JSON, and the text.
    static let stops: [(written: String, text: String)] = [
        (#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), (#"\u0041"#, "A"), ("\u{e9}", "\u{e9}"), ("\u{1F600}", "\u{1F600}"),
        ("\u{7F}", "\u{7F}"), (" ", " "), ("~", "~"),
    ]

    @Test func aStringReadsTheSameWhereverItsBytesStop() throws {
        for length in 0..<20 {
            for position in 0...length {
                let before = String(repeating: "a", count: position)
                let after = String(repeating: "b", count: length - position)
                for stop in Self.stops {
                    let json = #"{"k":""# + before + stop.written + after + #""}"#
                    let text = before + stop.text + after
                    #expect(try JSONParser().parse(json) == .object([("k", .string(text))]), "\(json)")
                    // Kept as bytes only when every byte is printable ASCII without escape.
                    let printable = stop.written == stop.text && stop.text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 }
                    var seen: (plain: Bool, value: JSONValue)?
                    let read = JSONParser().readFlatObject(Array(json.utf8)) { _, member in
                        let plain = if case .plainString = member { true } else { false }
                        seen = (plain, member.value)
                        return true
                    }
                    #expect(read, "\(json)")
                    #expect(seen?.plain == printable, "\(json)")
                    #expect(seen?.value == .string(text), "\(json)")
                }
            }
        }
    }

    @Test func aControlCharacterIsRefusedWhereItStands() {
        for length in 1..<20 {
            for position in 0..<length {
                let bytes =
                    Array(#"{"k":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: position) + [0x1F]
                    + Array(repeating: UInt8(ascii: "b"), count: length - position - 1) + Array(#""}"#.utf8)
                #expect(throws: JSONParseError.syntax(offset: 6 + position, reason: "control character in string")) {
                    try JSONParser().parse(bytes)
                }
                #expect(!JSONParser().readFlatObject(bytes) { _, _ in true })
            }
        }
    }

    @Test func aKeyOutsideASCIIIsLeftToParse() throws {
        let json = #"{"keyed\u00e9":1,"k\#u{e9}y":2,"a key of twenty bytes":3}"#
        #expect(!JSONParser().readFlatObject(Array(json.utf8)) { _, _ in true })
        #expect(try JSONParser().parse(json) == .object([("keyed\u{e9}", 1), ("k\u{e9}y", 2), ("a key of twenty bytes", 3)]))
    }
}
