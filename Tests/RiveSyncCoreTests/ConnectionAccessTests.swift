import RiveSyncCore
import Testing

/// Which `hello` gets which identity, and what it may do, decided from the core's own copy of
/// the tokens and anonymous access (`ConnectionAccess`).
@Suite struct ConnectionAccessTests {
    static let token = ConnectionAccess.Token(name: "ci", digest: Array("ic".utf8), grants: .everything)

    static func access(_ anonymous: ConnectionAccess.Anonymous) -> ConnectionAccess {
        ConnectionAccess(tokens: [token], anonymous: anonymous, anonymousGrants: Grants(scopes: []), digest: { Array($0.utf8.reversed()) })
    }

    @Test func loopbackAnonymousAccessAdmitsOnlyLoopbackAddresses() {
        let access = Self.access(.loopback)
        for address in ["127.0.0.1", "127.9.8.7", "::1", "::ffff:127.0.0.1"] {
            #expect(access.identity(token: nil, remoteAddress: address) == .anonymous, "\(address)")
        }
        for address in ["10.0.0.1", "::ffff:10.0.0.1", "128.0.0.1"] {
            #expect(access.identity(token: nil, remoteAddress: address) == nil, "\(address)")
        }
        #expect(Self.access(.denied).identity(token: nil, remoteAddress: "127.0.0.1") == nil)
        #expect(Self.access(.allowed).identity(token: nil, remoteAddress: "10.0.0.1") == .anonymous)
    }

    @Test func aGivenTokenMustBeKnownEvenWhereAnonymousAccessIsAllowed() throws {
        let access = Self.access(.allowed)
        #expect(access.identity(token: "nope", remoteAddress: "127.0.0.1") == nil)
        let identity = try #require(access.identity(token: "ci", remoteAddress: "10.0.0.1"))
        #expect(identity == .token(name: "ci", digest: Array("ic".utf8)))
        #expect(access.grants(of: identity)?.presenceOwner == .token("ci"), "the token's grants, owned by it")
        var revoked = access
        revoked.tokens = []
        #expect(revoked.grants(of: identity) == nil, "a revoked token has no grants")
    }
}
