import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol
import Testing

@testable import RiveSyncServer

/// Presence permissions in scopes (PROTOCOL.md §15): per whole target, never implied by `read`.
@Suite struct PresenceScopeTests {
    static func grants(_ json: JSONValue) throws -> Grants { try Grants(json: json, here: "scopes") }
    static let join = PresenceRequest.join(target: "room-7", key: "0123456789abcdef", state: [:])

    @Test func readingDoesNotShowPresence() throws {
        let reader = try Self.grants([["allow": ["read"], "target": "*"]])
        #expect(!reader.seesPresence(of: "room-7"))
        #expect(reader.denial(of: PresenceRequest.list(target: "room-7"))?.error.code == .forbidden)
        #expect(reader.denial(of: PresenceRequest.list(target: "room-7"))?.permission == .seePresence)
        #expect(reader.denial(of: Self.join)?.permission == .publishPresence)
    }

    @Test func presencePermissionsApplyToTheTargetsTheyName() throws {
        let grants = try Self.grants([
            ["allow": ["read", "seePresence"], "target": "room-*"], ["allow": ["publishPresence"], "target": "room-7"],
        ])
        #expect(grants.seesPresence(of: "room-3") && !grants.seesPresence(of: "lobby"))
        #expect(grants.denial(of: Self.join) == nil)
        #expect(grants.denial(of: PresenceRequest.update(target: "room-3", state: [:]))?.permission == .publishPresence)
        #expect(grants.denial(of: PresenceRequest.leave(target: "room-7")) == nil)
        #expect(grants.denial(of: PresenceRequest.list(target: "room-3")) == nil)
        #expect(Grants.everything.seesPresence(of: "x") && Grants.everything.denial(of: Self.join) == nil)
    }

    @Test func presenceIsNotGivenUnderPaths() {
        #expect(throws: ConfigurationError.self) {
            try Self.grants([["allow": ["read", "seePresence"], "target": "room-7", "paths": ["@Theme"]]])
        }
        #expect(throws: ConfigurationError.self) { try Self.grants([["allow": ["seePresence", "create"], "target": "room-7"]]) }
        #expect(throws: ConfigurationError.self) { try Self.grants([["allow": ["publishPresence"]]]) }
    }
}
