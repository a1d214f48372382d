import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport
import RiveSyncVersion

/// What the connection core asks of the daemon (`ConnectionEnvironment`): the clock, limits,
/// origins, `hello` authentication, each request's grants, the configured files and the
/// `welcome` reply. Used on the dispatcher's queue, and for `/metrics` on the transport's
/// service thread (which reads only the locked tokens and the configuration): its state is
/// the context and the locked tokens, both `Sendable`.
final class DispatcherEnvironment: ConnectionEnvironment, Sendable {
    let context: ServerContext
    /// The tokens file as last read (replaced by `reloadTokens`).
    let tokens: Locked<TokenTable>

    init(context: ServerContext, tokens: Locked<TokenTable>) {
        self.context = context
        self.tokens = tokens
    }

    func now() -> UInt64 { context.clock.now() }

    var limits: ConnectionLimits {
        let limits = context.limits.withLock { $0 }
        return ConnectionLimits(
            helloTimeoutSeconds: limits.helloTimeoutSeconds, maxCommandsPerSecond: limits.maxCommandsPerSecond,
            maxJSONDepth: limits.maxJSONDepth, maxMessageBytes: limits.maxMessageBytes, maxSubscriptions: limits.maxSubscriptions,
            maxAssetBytes: limits.maxAssetBytes, maxTransactionCommands: limits.maxTransactionCommands,
            maxFileBytes: limits.maxFileBytes)
    }

    /// Whether a connection may stay open: an `Origin` header, when present, must be allowed
    /// (`OriginPolicy`: the configured list, else the daemon's own pages only).
    func admits(origin: String?) -> Bool {
        let policy = OriginPolicy(allowed: context.configuration.auth.allowedOrigins, listenHost: context.configuration.host)
        return policy.admits(origin, port: context.listeningPort.withLock { $0 })
    }

    /// The identity a `hello` with `token` gets, or nil (unauthorized). A token that is given
    /// must be valid even where anonymous access is allowed.
    func authenticate(token: String?, remoteAddress: String) -> Identity? {
        if let token {
            return tokens.withLock { $0.entry(forToken: token) }.map { .token(name: $0.name, digest: $0.digest) }
        }
        switch context.configuration.auth.anonymous {
        case .allowed: return .anonymous
        case .loopback: return Self.isLoopback(remoteAddress) ? .anonymous : nil
        case .denied: return nil
        }
    }

    /// What an identity may do now; nil once its token is revoked.
    func grants(of identity: Identity) -> Grants? {
        switch identity {
        case .anonymous: return context.configuration.auth.anonymousGrants
        case .token(let name, let digest):
            return tokens.withLock { $0.entry(forDigest: digest)?.grants }.map { $0.owned(by: .token(name)) }
        }
    }

    /// Whether clients may load files (`allowFileUploads`).
    var acceptsFiles: Bool { context.configuration.allowFileUploads }

    /// The files of the configuration.
    var configuredFiles: Set<String> { Set(context.configuration.files.map(\.name)) }

    /// `wrong_node` for another shard's file on a cluster node (protocol/CLUSTER.md §6).
    func placedElsewhere(file: String) -> WireError? { context.placedElsewhere(file: file) }

    /// `wrong_node` for a configured target of another shard on a cluster node.
    func placedElsewhere(target: String) -> WireError? { context.placedElsewhere(target: target) }

    func welcome(id: JSONValue?) -> ServerMessage {
        let limits = context.limits.withLock { $0 }.wireLimits
        return .welcome(
            ServerMessage.Welcome(protocolVersion: 1, server: "rivesyncd/\(RiveSyncVersion.current)", epoch: context.epoch, limits: limits),
            id: id)
    }

    /// Whether `GET /metrics` is answered: it needs the `metrics` permission, from the token in
    /// `Authorization: Bearer <token>` or, without that header, from anonymous access.
    func metricsAccess(authorization: String?, remoteAddress: String) -> HTTPAccess {
        var token: String?
        if let authorization {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return .unauthorized }
            token = String(parts[1])
        }
        guard let identity = authenticate(token: token, remoteAddress: remoteAddress), let grants = grants(of: identity) else {
            return .unauthorized
        }
        if grants.allows(.metrics) { return .allowed }
        return token == nil ? .unauthorized : .forbidden
    }

    /// 127.0.0.0/8, ::1, and 127.x mapped into IPv6.
    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}

extension Dispatcher {
    func metricsAccess(authorization: String?, remoteAddress: String) -> HTTPAccess {
        environment.metricsAccess(authorization: authorization, remoteAddress: remoteAddress)
    }

    /// SIGHUP: reads the tokens file again. On success, connections whose token is gone are
    /// closed (1008) and subscriptions the new scopes no longer allow are ended; on failure
    /// the old tokens stay.
    func reloadTokens() throws(ConfigurationError) {
        guard let path = context.configuration.auth.tokensFile else { return }
        let table = try TokenTable.read(path)
        queue.sync {
            environment.tokens.withLock { $0 = table }
            run(.tokensReloaded)
        }
        context.log(.info, "tokens reloaded", [("path", path), ("tokens", "\(table.entries.count)")])
    }
}
