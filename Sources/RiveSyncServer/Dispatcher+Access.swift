import RiveSyncJSON
import RiveSyncProtocol
import RiveSyncTransport

/// Who a connection is, fixed by its `hello`.
enum Identity: Sendable, Hashable {
    case anonymous
    /// A token of the tokens file, by digest: its scopes are looked up again on every request,
    /// so a reload applies to open connections.
    case token(name: String, digest: [UInt8])
}

/// Access control in the dispatcher (on its queue): origins, `hello` authentication, the
/// grants of each request, and reloading the tokens file.
extension Dispatcher {
    /// Whether a connection may stay open: an `Origin` header, when present, must be allowed.
    func admits(_ info: SessionInfo) -> Bool {
        guard let allowed = context.configuration.auth.allowedOrigins, let origin = info.origin else { return true }
        return allowed.contains(origin)
    }

    /// The identity a `hello` with `token` gets, or nil (unauthorized). A token that is given
    /// must be valid even where anonymous access is allowed.
    func authenticate(_ token: String?, remoteAddress: String) -> Identity? {
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
        case .token(_, let digest): return tokens.withLock { $0.entry(forDigest: digest)?.grants }
        }
    }

    /// Whether `GET /metrics` is answered: it needs the `metrics` permission, from the token in
    /// `Authorization: Bearer <token>` or, without that header, from anonymous access. Called on
    /// the transport's service thread: reads only the locked tokens and the configuration.
    func metricsAccess(authorization: String?, remoteAddress: String) -> HTTPAccess {
        var token: String?
        if let authorization {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return .unauthorized }
            token = String(parts[1])
        }
        guard let identity = authenticate(token, remoteAddress: remoteAddress), let grants = grants(of: identity) else {
            return .unauthorized
        }
        if grants.allows(.metrics) { return .allowed }
        return token == nil ? .unauthorized : .forbidden
    }

    /// Answers `unauthorized`, closes with 1008 and forgets the session at once: its later
    /// messages are ignored and its subscriptions get no more batches.
    func refuse(_ session: SessionID, id: JSONValue?, reason: String) {
        var metadata = [("reason", reason), ("remote", sessions[session]?.remoteAddress ?? "")]
        if case .token(let name, _)? = sessions[session]?.identity { metadata.append(("token", name)) }
        context.log(.warning, "connection refused", metadata)
        context.sendError(WireError(code: .unauthorized, message: reason), id: id, to: session)
        context.submit([.close(session, code: CloseCode.policyViolation.rawValue, reason: "unauthorized")])
        sessions[session] = nil
        for worker in workers { worker.queue.async { worker.sessionClosed(session) } }
    }

    /// SIGHUP: reads the tokens file again. On success, connections whose token is gone are
    /// closed (1008) and subscriptions the new scopes no longer allow are ended; on failure
    /// the old tokens stay.
    func reloadTokens() throws(ConfigurationError) {
        guard let path = context.configuration.auth.tokensFile else { return }
        let table = try TokenTable.read(path)
        queue.sync {
            tokens.withLock { $0 = table }
            recheckSessions()
        }
        context.log(.info, "tokens reloaded", [("path", path), ("tokens", "\(table.entries.count)")])
    }

    /// Applies the current tokens to every open connection. An ended subscription is told by
    /// an `unsubscribed` message without `id`.
    private func recheckSessions() {
        for (session, state) in sessions {
            guard let identity = state.identity else { continue }
            guard let grants = grants(of: identity) else {
                refuse(session, id: nil, reason: "token revoked")
                continue
            }
            for (target, paths) in state.subscriptions where !grants.allowsSubscription(to: target, paths: paths) {
                sessions[session]!.subscriptions[target] = nil
                guard let location = context.directory.target(target) else { continue }
                let worker = workers[location.worker]
                worker.queue.async { worker.handle(Request(id: nil, body: .unsubscribe(target: target)), from: session, grants: grants) }
            }
        }
    }

    /// 127.0.0.0/8, ::1, and 127.x mapped into IPv6.
    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
