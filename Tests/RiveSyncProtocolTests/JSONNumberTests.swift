import RiveSyncJSON
import Testing

/// The parser reads short integers by summing their digits and every other number with
/// `Double(_:)`: both give the value `Double(_:)` gives for the text, sign of zero included.
@Suite struct JSONNumberTests {
    @Test(arguments: [
        "0", "-0", "7", "-42", "123456789012345", "-999999999999999", "1234567890123456", "-12345678901234567890",
        "1.5", "-0.0", "1e3", "25E-1", "9007199254740993",
    ])
    func numbersReadAsDoubleReadsTheirText(text: String) throws {
        let parsed = try JSONParser().parse("[\(text), {\"n\": \(text)}]")
        let expected = try #require(Double(text))
        guard case .array(let items) = parsed, case .number(let first) = items[0], case .number(let member)? = items[1]["n"] else {
            Issue.record("not an array of the number and an object: \(parsed)")
            return
        }
        #expect(first.bitPattern == expected.bitPattern)
        #expect(member.bitPattern == expected.bitPattern)
    }

    @Test func anIntegerIsStillStrict() {
        for text in ["01", "-", "-a", "1.", "1e"] {
            #expect(throws: JSONParseError.self) { try JSONParser().parse(text) }
        }
    }
}
