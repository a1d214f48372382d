import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// The access rules read a request's parsed path (`ParsedPath`, from the decoder) and answer
/// exactly as for its text: scopes compare the same segments, escaped as written.
@Suite struct ParsedPathAccessTests {
    static let grants = Grants(scopes: [
        Scope(permissions: [.read, .write], targets: .exact("room"), prefixes: [["@Theme"], ["players", "2"], ["BG On~1Off"]]),
        Scope(permissions: [.fire], targets: .any, prefixes: [[]]),
    ])

    static let paths = [
        "", "@Theme", "@Theme/background", "@Themes", "players", "players/2", "players/2/name", "players/20", "BG On~1Off",
        "BG On", "#17/x", "a//b", "a~2b", "~",
    ]

    @Test func aParsedPathIsAllowedExactlyWhereItsTextIs() {
        for permission in [Permission.read, .write, .fire] {
            for target in ["room", "lobby"] {
                for text in Self.paths {
                    let parsed = ParsedPath(text)
                    #expect(
                        Self.grants.allows(permission, on: target, at: parsed) == Self.grants.allows(permission, on: target, at: text),
                        "\(permission) \(target) '\(text)'")
                    #expect(
                        Self.grants.allowsWithin(permission, on: target, at: parsed)
                            == Self.grants.allowsWithin(permission, on: target, at: text),
                        "within: \(permission) \(target) '\(text)'")
                }
            }
        }
        #expect(Self.grants.allows(.write, on: "room", at: ParsedPath("@Theme/background")))
        #expect(!Self.grants.allows(.write, on: "room", at: ParsedPath("@Themes")), "segment by segment")
        #expect(!Self.grants.allows(.write, on: "room", at: ParsedPath("#17/x")), "an id path needs the whole of every target")
    }

    @Test func aDecodedSetCarriesItsParsedPathToTheAccessCheck() throws {
        let request = try ClientRequest(["type": "set", "target": "room", "path": "players/2/name", "value": "ada"])
        guard case .set(_, let path, _) = request else {
            Issue.record("not a set: \(request)")
            return
        }
        #expect(path.segments == ["players", "2", "name"] && path.names == ["players", "2", "name"])
        #expect(Self.grants.denial(of: request) == nil)
        let outside = try ClientRequest(["type": "set", "target": "room", "path": "players/1/name", "value": "bo"])
        #expect(Self.grants.denial(of: outside) == Denial(permission: .write, target: "room", path: "players/1/name"))
    }
}
