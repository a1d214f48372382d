import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport
import RiveSyncVersion

/// What the connection core asks of the daemon (`ConnectionEnvironment`): the clock.
final class DispatcherEnvironment: ConnectionEnvironment, Sendable {
    let context: ServerContext

    init(context: ServerContext) { self.context = context }

    func now() -> UInt64 { context.now() }
}

extension ServerContext {
    /// The connection core's settings from the configuration, the limits as they are now and
    /// `tokens` (the origins' port and interfaces are added once the daemon listens).
    func connectionSettings(tokens: TokenTable) -> ConnectionSettings {
        let limits = self.limits.withLock { $0 }
        let auth = configuration.auth
        let anonymous: ConnectionAccess.Anonymous =
            switch auth.anonymous {
            case .allowed: .allowed
            case .loopback: .loopback
            case .denied: .denied
            }
        var settings = ConnectionSettings(
            limits: limits.connectionLimits,
            access: ConnectionAccess(
                tokens: tokens.entries, anonymous: anonymous, anonymousGrants: auth.anonymousGrants, digest: TokenTable.digest(of:)),
            origins: OriginPolicy(allowed: auth.allowedOrigins, listenHost: configuration.host),
            acceptsFiles: configuration.allowFileUploads, configuredFiles: Set(configuration.files.map(\.name)),
            welcome: limits.welcome(epoch: epoch), shards: shardPlacement())
        settings.frameHeadroom = Payload.headroom
        return settings
    }
}

extension Limits {
    /// The limits the connection core applies.
    var connectionLimits: ConnectionLimits {
        ConnectionLimits(
            helloTimeoutSeconds: helloTimeoutSeconds, maxCommandsPerSecond: maxCommandsPerSecond, maxJSONDepth: maxJSONDepth,
            maxMessageBytes: maxMessageBytes, maxSubscriptions: maxSubscriptions, maxAssetBytes: maxAssetBytes,
            maxTransactionCommands: maxTransactionCommands, maxFileBytes: maxFileBytes)
    }

    /// The `welcome` reply with these limits.
    func welcome(epoch: String) -> ServerMessage.Welcome {
        ServerMessage.Welcome(protocolVersion: 1, server: "rivesyncd/\(RiveSyncVersion.current)", epoch: epoch, limits: wireLimits)
    }
}

extension Dispatcher {
    /// Whether `GET /metrics` is answered (on the transport's service thread, from the copy of
    /// the access the core was last sent): it needs the `metrics` permission, from the token in
    /// `Authorization: Bearer <token>` or, without that header, from anonymous access.
    func metricsAccess(authorization: String?, remoteAddress: String) -> HTTPAccess {
        var token: String?
        if let authorization {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return .unauthorized }
            token = String(parts[1])
        }
        let access = self.access.withLock { $0 }
        guard let identity = access.identity(token: token, remoteAddress: remoteAddress), let grants = access.grants(of: identity) else {
            return .unauthorized
        }
        if grants.allows(.metrics) { return .allowed }
        return token == nil ? .unauthorized : .forbidden
    }

    /// Changes the connection core's settings in order with the transport's events (under the
    /// core's lock), with the interfaces' addresses read again, and the copy `/metrics` reads.
    func reconfigure(_ change: (inout ConnectionSettings) -> Void) {
        let interfaceAddresses = OriginPolicy.interfaceAddresses()
        withCore {
            var settings = connections.settings
            change(&settings)
            settings.origins.interfaceAddresses = interfaceAddresses
            access.withLock { $0 = settings.access }
            run(.configured(settings))
        }
    }
}
