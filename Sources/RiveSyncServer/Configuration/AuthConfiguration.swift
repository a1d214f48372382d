import RiveSyncCore
import RiveSyncJSON

extension DaemonConfiguration {
    /// The `auth` section: where tokens come from, who may connect without one, and which
    /// browser origins may open a connection.
    public struct Auth: Sendable {
        /// Who may say `hello` without a token.
        public enum Anonymous: String, Sendable {
            /// Nobody: every connection needs a token.
            case denied
            /// Connections from a loopback address (127.0.0.0/8, ::1).
            case loopback
            /// Everyone.
            case allowed
        }

        /// The tokens file (re-read on SIGHUP); nil = no tokens.
        public var tokensFile: String?
        public var anonymous: Anonymous
        /// What anonymous connections may do.
        var anonymousGrants: Grants
        /// Exact `Origin` values allowed to connect; nil = any. Connections without an
        /// `Origin` header (non-browser clients) are not affected.
        public var allowedOrigins: [String]?

        /// The demo's access (and the default of a configuration built in code): no tokens,
        /// anonymous connections from loopback only, with every permission. A configuration
        /// file must have an `auth` section.
        public static let loopbackOnly = Auth(tokensFile: nil, anonymous: .loopback, anonymousGrants: .everything, allowedOrigins: nil)

        init(tokensFile: String?, anonymous: Anonymous, anonymousGrants: Grants, allowedOrigins: [String]?) {
            self.tokensFile = tokensFile
            self.anonymous = anonymous
            self.anonymousGrants = anonymousGrants
            self.allowedOrigins = allowedOrigins
        }

        /// Reads `{"tokensFile", "allowAnonymous": false | true | "loopback", "anonymousScopes",
        /// "allowedOrigins"}`; anonymous access is denied unless given.
        init(json: JSONValue, baseDirectory: String) throws(ConfigurationError) {
            guard json.objectValue != nil else { throw .invalid("auth: expected an object") }
            var problems = ConfigurationProblems()
            problems.refuseUnknownKeys(of: json, section: "auth", here: "auth")
            try problems.throwIfAny()
            tokensFile = try json["tokensFile"].map { (value) throws(ConfigurationError) in
                guard let path = value.stringValue, !path.isEmpty else { throw .invalid("auth.tokensFile: expected a path") }
                return path.hasPrefix("/") ? path : baseDirectory + "/" + path
            }
            switch json["allowAnonymous"] {
            case nil, .bool(false)?: anonymous = .denied
            case .bool(true)?: anonymous = .allowed
            case .string("loopback")?: anonymous = .loopback
            default: throw .invalid("auth.allowAnonymous: expected true, false or \"loopback\"")
            }
            guard tokensFile != nil || anonymous != .denied else {
                throw .invalid("auth: no tokensFile and no anonymous access: nobody could connect")
            }
            guard json["anonymousScopes"] == nil || anonymous != .denied else {
                throw .invalid("auth.anonymousScopes: anonymous access is not allowed (allowAnonymous)")
            }
            anonymousGrants =
                try json["anonymousScopes"].map { (value) throws(ConfigurationError) in
                    try Grants(json: value, here: "auth.anonymousScopes")
                } ?? .everything
            allowedOrigins = try json["allowedOrigins"].map { (value) throws(ConfigurationError) in
                let origins = value.arrayValue?.compactMap(\.stringValue)
                guard let origins, origins.count == value.arrayValue?.count else {
                    throw .invalid("auth.allowedOrigins: expected an array of strings")
                }
                return origins
            }
        }
    }
}
