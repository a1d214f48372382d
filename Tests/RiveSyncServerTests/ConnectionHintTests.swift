import Testing

@testable import RiveSyncServer

/// What a connection's URL says it is for (protocol/PROTOCOL.md §2): `target` and `file` from
/// the query, percent-decoded; anything else is no hint.
@Suite struct ConnectionHintTests {
    static func hint(_ requestTarget: String) -> [String?] {
        let hint = ConnectionHint(requestTarget: requestTarget)
        return [hint.target, hint.file]
    }

    @Test func theQueryNamesATargetOrAFile() {
        #expect(Self.hint("/?target=room-7") == ["room-7", nil])
        #expect(Self.hint("/ws?file=my%20file&x=1") == [nil, "my file"])
        #expect(Self.hint("/?file=f&target=t") == ["t", "f"])
    }

    @Test func anythingElseIsNoHint() {
        for requestTarget in ["/", "/?", "/?room=x", "/target=x", "/?TARGET=x"] {
            #expect(Self.hint(requestTarget) == [nil, nil], "\(requestTarget)")
        }
    }
}
