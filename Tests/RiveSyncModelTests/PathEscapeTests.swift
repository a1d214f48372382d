import RiveSyncModel
import Testing

/// Rive allows `/` (and `~`) in names; a path writes them `~1` and `~0` (RFC 6901), in every
/// path the model reads or builds (PROTOCOL.md §4).
@Suite struct PathEscapeTests {
    static let schema: FileSchema = {
        let json = """
            {
              "rivesyncSchema": 1,
              "viewModels": [
                { "name": "Look/Feel", "global": true, "properties": [ { "name": "tone~1", "type": "string" } ],
                  "instances": [ { "name": "Default", "values": { "tone~1": "warm" } } ] },
                { "name": "Part", "properties": [ { "name": "x/y", "type": "number" } ] },
                { "name": "Panel",
                  "properties": [
                    { "name": "BG On/Off", "type": "boolean" }, { "name": "a~b", "type": "number" },
                    { "name": "Sub/Part", "type": "viewModel", "viewModel": "Part" }, { "name": "items/all", "type": "list" } ] }
              ],
              "artboards": [ { "name": "Main", "viewModel": "Panel", "stateMachines": ["sm"] } ]
            }
            """
        do { return try FileSchema(jsonText: json) } catch { fatalError("schema: \(error)") }
    }()

    static func runtime() throws -> FileRuntime {
        var runtime = FileRuntime(schema: schema)
        try runtime.createStateMachine(artboard: "Main", stateMachine: "sm")
        return runtime
    }

    @Test func escapeAndUnescapeAreInverse() {
        let names = ["BG On/Off", "a~b", "~1", "/~0/", "plain", "~", "/"]
        for name in names { #expect(PropertyPath.unescape(PropertyPath.escape(name)) == name) }
        #expect(PropertyPath.escape("BG On/Off") == "BG On~1Off")
        #expect(PropertyPath.escape("a~b") == "a~0b")
        #expect(PropertyPath.escape("~1") == "~01", "a written ~1 is not a slash")
        #expect(PropertyPath.escape("plain") == "plain", "names without / or ~ are unchanged")
        #expect(PropertyPath.unescape("a~2") == nil)
        #expect(PropertyPath.unescape("a~") == nil)
    }

    @Test func escapedNamesResolveAndWrite() throws {
        var runtime = try Self.runtime()
        let batch = try runtime.apply(.set(path: "BG On~1Off", value: .boolean(true)))
        #expect(batch.rejected.isEmpty)
        #expect(batch.effects.flatMap(\.paths) == ["BG On~1Off"], "the effect's path is escaped")
        #expect(try runtime.value(at: "BG On~1Off", in: "sm") == .boolean(true))
        let tilde = try runtime.apply(.set(path: "a~0b", value: .number(3)), id: 2)
        #expect(tilde.effects.flatMap(\.paths) == ["a~0b"])
        #expect(try runtime.value(at: "@Look~1Feel/tone~01", in: "sm") == .string("warm"), "a global's name and a ~1 in a name")
    }

    @Test func unescapedOrMalformedPathsFail() throws {
        let runtime = try Self.runtime()
        #expect(throws: PropertyError.noSuchProperty(path: "BG On")) { try runtime.value(at: "BG On/Off", in: "sm") }
        #expect(throws: PropertyError.invalidPath("a~b")) { try runtime.value(at: "a~b", in: "sm") }
    }

    @Test func nestedEffectsCarryEscapedPaths() throws {
        var runtime = try Self.runtime()
        let part = try runtime.createInstance(.blank(from: .name("Part")))
        _ = try runtime.apply(.set(path: "Sub~1Part", value: .viewModel(part)))
        let batch = try runtime.apply(.set(path: "Sub~1Part/x~1y", value: .number(2)), id: 2)
        #expect(batch.rejected.isEmpty)
        #expect(batch.effects.flatMap(\.paths) == ["Sub~1Part/x~1y"])
        let item = try runtime.createInstance(.blank(from: .name("Part")))
        _ = try runtime.apply(.listAppend(path: "items~1all", instance: item), id: 3)
        let inList = try runtime.apply(.set(path: "items~1all/0/x~1y", value: .number(5)), id: 4)
        #expect(inList.effects.flatMap(\.paths) == ["items~1all/0/x~1y"])
    }
}
