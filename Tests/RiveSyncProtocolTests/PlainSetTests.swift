import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// A plain `set` is read straight from its bytes (`Request.plainSet`, `JSONParser.readFlatObject`):
/// it gives exactly the request `parse` then `decode` give, and leaves every other message to
/// them, so their errors stay as they were.
@Suite struct PlainSetTests {
    static var parser: JSONParser { JSONParser(maxDepth: 8, maxBytes: 512) }

    /// What `parse` then `decode` give for `text`.
    static func decoded(_ text: String) throws -> Request {
        try Request.decode(try parser.parse(Array(text.utf8))).get()
    }

    static let plain = [
        #"{"type":"set","id":11,"target":"room-3","path":"client5","value":"0123456789abcdefghij"}"#,
        #" { "value" : 5 , "path" : "seats/3/name" , "target" : "room" , "type" : "set" } "#,
        #"{"type":"set","id":"a-7","target":"t","path":"BG On~1Off","value":true}"#,
        #"{"type":"set","id":null,"target":"t","path":"x","value":null}"#,
        #"{"type":"set","id":-3,"target":"t","path":"x","value":-1.5e3,"token":"ignored"}"#,
        "{\"type\":\"set\",\"target\":\"t\",\"path\":\"x\",\"value\":\"caf\u{e9} \\u00e9\\n\\\"q\\\"\"}",
        #"{"type":"set","target":"t","path":"","value":false}"#,
        #"{"type":"s\u0065t","id":2,"target":"t","path":"x","value":1}"#,
    ]

    @Test(arguments: plain)
    func aPlainSetIsTheRequestDecodeGives(text: String) throws {
        let direct = try #require(Request.plainSet(Array(text.utf8), parser: Self.parser))
        let decoded = try Self.decoded(text)
        #expect(direct == decoded)
        #expect(direct.id == decoded.id, "the id as written, or none")
    }

    static let others = [
        // Decoded as before: nested values, repeated or escaped keys, other requests.
        #"{"type":"set","id":1,"target":"t","path":"x","value":{"instance":3}}"#,
        #"{"type":"set","id":1,"target":"t","path":"x","value":[1]}"#,
        #"{"type":"set","id":1,"target":"t","target":"u","path":"x","value":1}"#,
        #"{"type":"set","type":"set","id":1,"target":"t","path":"x","value":1}"#,
        #"{"type":"set","id":null,"id":1,"target":"t","path":"x","value":1}"#,
        #"{"type":"set","id":1,"target":"t","path":"x","path":"y","value":1}"#,
        #"{"type":"set","id":1,"target":"t","path":"x","value":1,"value":2}"#,
        #"{"type":"set","id":1,"t\u0061rget":"t","path":"x","value":1}"#,
        #"{"type":"fire","id":1,"target":"t","path":"x"}"#,
        #"{"type":"ping","id":1}"#,
        #"{"type":"set","id":1,"target":"t","path":"x","value":1,"extra":{"a":1}}"#,
        // Errors, which `parse` or `decode` report.
        #"{"type":"set","id":1.5,"target":"t","path":"x","value":1}"#,
        #"{"type":"set","id":true,"target":"t","path":"x","value":1}"#,
        #"{"type":"set","id":1,"target":7,"path":"x","value":1}"#,
        #"{"type":"set","id":1,"target":"t","value":1}"#,
        #"{"type":"set","id":1,"target":"t","path":"x"}"#,
        #"{"type":"set","id":1,"target":"t","path":"x","value":01}"#,
        #"{"type":"set","id":1,"target":"t","path":"x","value":"a"} x"#,
        #"{"type":"set","id":1,"target":"t","path":"x","value":"a",}"#,
        "{\"type\":\"set\",\"id\":1,\"target\":\"t\",\"path\":\"x\",\"value\":\"a\u{01}\"}",
        #"[{"type":"set"}]"#, "{", "", "{}",
    ]

    @Test(arguments: others)
    func anythingElseIsLeftToParseAndDecode(text: String) {
        #expect(Request.plainSet(Array(text.utf8), parser: Self.parser) == nil)
    }

    @Test func theParsersLimitsHold() {
        let text = #"{"type":"set","id":1,"target":"t","path":"x","value":"\#(String(repeating: "v", count: 600))"}"#
        #expect(Request.plainSet(Array(text.utf8), parser: Self.parser) == nil, "past maxBytes: parse's tooLarge")
        let flat = #"{"type":"set","target":"t","path":"x","value":1}"#
        #expect(Request.plainSet(Array(flat.utf8), parser: JSONParser(maxDepth: 0)) == nil, "past maxDepth: parse's tooDeep")
    }

    @Test func aFlatObjectsMembersAreTheParsedOnes() throws {
        let text = #"{"a":1,"b":"two","c":true,"d":null,"a":-0.25}"#
        var members: [(String, JSONValue)] = []
        let read = Self.parser.readFlatObject(Array(text.utf8)) { key, value in
            members.append((String(decoding: key, as: UTF8.self), value.value))
            return true
        }
        #expect(read)
        #expect(JSONValue.object(members) == (try Self.parser.parse(text)))
        #expect(!Self.parser.readFlatObject(Array(text.utf8)) { _, _ in false }, "stopped by its caller")
    }

    /// A string without escapes is handed over as its bytes; one with escapes or outside ASCII,
    /// and every other value, parsed. Either compares as the text it writes.
    @Test func aPlainStringStaysItsBytes() throws {
        let text = "{\"plain\":\"set\",\"escaped\":\"s\\u0065t\",\"accented\":\"s\u{e9}t\",\"number\":5,\"empty\":\"\"}"
        var seen: [String: (plain: Bool, value: JSONValue, isSet: Bool, string: String?)] = [:]
        let read = Self.parser.readFlatObject(Array(text.utf8)) { key, member in
            let plain = if case .plainString = member { true } else { false }
            seen[String(decoding: key, as: UTF8.self)] = (plain, member.value, member.isString("set"), member.stringValue)
            return true
        }
        #expect(read)
        let plain = try #require(seen["plain"])
        #expect(plain.plain && plain.value == "set" && plain.isSet && plain.string == "set")
        let escaped = try #require(seen["escaped"])
        #expect(!escaped.plain && escaped.value == "set" && escaped.isSet && escaped.string == "set")
        let accented = try #require(seen["accented"])
        #expect(!accented.plain && accented.value == "s\u{e9}t" && !accented.isSet)
        let number = try #require(seen["number"])
        #expect(!number.plain && number.value == 5 && !number.isSet && number.string == nil)
        let empty = try #require(seen["empty"])
        #expect(empty.plain && empty.value == "" && !empty.isSet && empty.string == "")
    }
}
