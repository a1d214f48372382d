import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// A frame is written once, after the transport's headroom (`serialized(headroom:)`): the bytes
/// must be exactly the array encoding's, directly written or not, however much they outgrow
/// the room first reserved.
struct HeadroomEncodingTests {
    static let messages: [ServerMessage] =
        DirectEncodingTests.messages + [
            .pong(id: .number(1)),
            .error(WireError(code: .badJSON, message: "no \"target\"\n"), id: .string("x")),
            // Far past the room expected for a batch of one effect (`expectedSize`): it grows.
            .batch(
                ServerMessage.Batch(
                    target: String(repeating: "r", count: 300), epoch: "e", seq: 1,
                    effects: [DirectEncodingTests.set("title", .string(String(repeating: "ä\u{1}", count: 2000)))], commands: [1])),
        ]

    @Test(arguments: messages, [0, 16])
    func theBytesAfterTheHeadroomAreTheArrays(_ message: ServerMessage, headroom: Int) {
        let bytes = message.serialized(headroom: headroom)
        #expect(bytes.headroom == headroom)
        #expect(bytes.count == bytes.bytes.count)
        #expect(bytes.bytes == message.serialized())
        #expect(bytes.bytes == message.jsonValue.serialized())
    }

    /// Appends 100 rounds of one byte, then a run of `round` bytes, to `out`; returns them.
    static func appendRounds(to out: inout some JSONOutput & ~Copyable) -> [UInt8] {
        var expected: [UInt8] = []
        for round in 0..<100 {
            out.append(UInt8(truncatingIfNeeded: round))
            expected.append(UInt8(truncatingIfNeeded: round))
            let run = [UInt8](repeating: UInt8(truncatingIfNeeded: 255 - round), count: round)
            run.withUnsafeBytes { out.append(contentsOf: $0) }
            expected += run
            if round == 50 { out.reserveCapacity(expected.count + 4_000) }
        }
        return expected
    }

    @Test func bytesAppendedOneByOneAndInRunsKeepTheirOrder() {
        var out = HeadroomBytes(headroom: 16, capacity: 1)
        let expected = Self.appendRounds(to: &out)
        #expect(out.bytes == expected)
        #expect(out.withUnsafeBytes { $0.baseAddress } == UnsafeRawPointer(out.unsafeMessageStart))
    }

    @Test func aCopyWrittenToLeavesTheOriginalAsItWas() {
        var original = HeadroomBytes(headroom: 16, capacity: 8)
        JSONValue.string("a").write(into: &original)
        var copy = original
        JSONValue.number(1).write(into: &copy)
        #expect(original.bytes == Array(#""a""#.utf8))
        #expect(copy.bytes == Array(#""a"1"#.utf8))
        #expect(copy.headroom == 16)
        #expect(copy.unsafeMessageStart != original.unsafeMessageStart)
    }

    @Test func stringsAreEscapedAsJSONNeeds() {
        var out = HeadroomBytes(headroom: 16)
        JSONValue.string("a\"\\\n\r\t\u{1}\u{1F}/é").write(into: &out)
        #expect(String(decoding: out.bytes, as: UTF8.self) == #""a\"\\\n\r\t\u0001\u001f/é""#)
    }
}

/// `HeadroomWriter` writes a message into a block of its own, growing it past the room it was
/// given as often as needed.
struct HeadroomWriterTests {
    @Test(arguments: [0, 1, 7, 300])
    func bytesAppendedOneByOneAndInRunsKeepTheirOrder(capacity: Int) {
        var out = HeadroomWriter(headroom: 16, capacity: capacity)
        let expected = HeadroomEncodingTests.appendRounds(to: &out)
        #expect(out.count == expected.count)
        let bytes = out.finish()
        #expect(bytes.bytes == expected)
        #expect(bytes.headroom == 16)
        #expect(bytes.count == expected.count)
    }

    @Test(arguments: [
        ("", #""""#), ("plain", #""plain""#), ("\"first", #""\"first""#), ("last\\", #""last\\""#),
        ("mid\ndle", #""mid\ndle""#), ("\u{1}\u{1F}é/\t\r", #""\u0001\u001fé/\t\r""#),
        // Past eight bytes, read eight at a time: the escape at each edge of a word.
        ("0123456789abcdef", #""0123456789abcdef""#), ("0123456\"89", #""0123456\"89""#),
        ("01234567\\9", #""01234567\\9""#), ("0123456789abcde\u{1F}", #""0123456789abcde\u001f""#),
        ("éééé\"ü ~!#[]{}", #""éééé\"ü ~!#[]{}""#), ("abcdefghijklmnopq\n", #""abcdefghijklmnopq\n""#),
    ])
    func aStringIsEscapedWhereverItsFirstEscapeIs(_ text: String, _ json: String) {
        var out = HeadroomWriter(headroom: 0, capacity: 2)
        JSONValue.writeString(text, into: &out)
        #expect(String(decoding: out.finish().bytes, as: UTF8.self) == json)
        var array: [UInt8] = []
        JSONValue.writeString(text, into: &array)
        #expect(String(decoding: array, as: UTF8.self) == json)
    }
}
