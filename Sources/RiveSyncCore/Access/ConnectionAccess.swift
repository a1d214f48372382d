/// Who may say `hello` and what each identity may do: the tokens as last read and the
/// configuration's anonymous access. The connection core keeps it as its own state
/// (`ConnectionSettings`, replaced by `configured`), so a token is checked without a lock or a
/// call out; the daemon's `/metrics` applies the same rules to its own copy.
public struct ConnectionAccess: Sendable {
    /// One token of the tokens file: a name for logs (the token itself is never logged), the
    /// digest it is known by, and what it may do.
    public struct Token: Sendable {
        public var name: String
        /// `digest` of the token.
        public var digest: [UInt8]
        public var grants: Grants

        public init(name: String, digest: [UInt8], grants: Grants) {
            self.name = name
            self.digest = digest
            self.grants = grants
        }
    }

    /// Who may say `hello` without a token.
    public enum Anonymous: Sendable {
        /// Nobody: every connection needs a token.
        case denied
        /// Connections from a loopback address (127.0.0.0/8, ::1, 127.x mapped into IPv6).
        case loopback
        /// Everyone.
        case allowed
    }

    public var tokens: [Token]
    public var anonymous: Anonymous
    /// What anonymous connections may do.
    public var anonymousGrants: Grants
    /// The digest a presented token is compared by (the daemon's: lower-case hex SHA-256 as
    /// UTF-8). A pure function of the token; the core links no cryptography of its own.
    public var digest: @Sendable (String) -> [UInt8]

    public init(tokens: [Token], anonymous: Anonymous, anonymousGrants: Grants, digest: @escaping @Sendable (String) -> [UInt8]) {
        self.tokens = tokens
        self.anonymous = anonymous
        self.anonymousGrants = anonymousGrants
        self.digest = digest
    }

    /// The identity a `hello` with `token` gets, or nil (unauthorized). A token that is given
    /// must be valid even where anonymous access is allowed. Every token is compared in
    /// constant time without early exit, so timing does not tell which entry was close.
    public func identity(token: String?, remoteAddress: String) -> Identity? {
        guard let token else {
            switch anonymous {
            case .allowed: return .anonymous
            case .loopback: return Self.isLoopback(remoteAddress) ? .anonymous : nil
            case .denied: return nil
            }
        }
        let digest = digest(token)
        var found: Token?
        for entry in tokens where Self.constantTimeEqual(entry.digest, digest) && found == nil {
            found = entry
        }
        return found.map { .token(name: $0.name, digest: $0.digest) }
    }

    /// What `identity` may do now (its token's scopes as last read); nil once its token is
    /// revoked. The rules that apply them are `Grants.denial(of:)`.
    public func grants(of identity: Identity) -> Grants? {
        switch identity {
        case .anonymous: return anonymousGrants
        case .token(let name, let digest): return tokens.first { $0.digest == digest }.map { $0.grants.owned(by: .token(name)) }
        }
    }

    /// 127.0.0.0/8, ::1, and 127.x mapped into IPv6.
    public static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
