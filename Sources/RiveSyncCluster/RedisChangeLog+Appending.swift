import Dispatch
import RiveSyncClusterCore
import RiveSyncCore
import RiveSyncRedis
import Synchronization

/// A proposal on its way into the log, and whom to tell when it surely did not get in.
struct PendingAppend: Sendable {
    var entry: ClusterEntry
    /// Called on `appendQueue` when the entry surely is not in the log (and never will be).
    var failed: @Sendable (LogFailure) -> Void
}

/// Appending (protocol/CLUSTER.md §2.4), on `appendQueue`: proposals go out in the order they
/// were made, pipelined on the one append connection — up to `appendWindow` sent before their
/// replies, the rest waiting for room (never dropped). A reply is matched to the oldest append
/// in flight; an error reply answers that append only. A broken connection leaves every append
/// in flight unknown: the node joins at once, and the join's read-back answers them.
extension RedisChangeLog {
    /// Appends in flight on the append connection at most.
    static let appendWindow = 64

    /// Queues `append` behind every proposal made before it (from any queue).
    func enqueueAppend(_ append: PendingAppend) {
        appendQueue.async { [self] in
            waitingToSend.append(append)
            schedulePump()
        }
    }

    /// Queues one pass of `pumpAppends` behind what `appendQueue` holds, unless one is queued
    /// or running: proposals that arrive while a pass waits for a reply go out in the next.
    private func schedulePump() {
        guard !pumping else { return }
        pumping = true
        appendQueue.async { [self] in pumpAppends() }
    }

    /// One pass: sends what waits while the window has room, then waits for the oldest
    /// append's reply and takes every reply that came with it.
    private func pumpAppends() {
        // A connection found broken while taking replies: its appends are unknown.
        if appender?.isBroken ?? false, !inFlight.isEmpty { receiveReplies() }
        sendWaiting()
        receiveReplies()
        metrics.appendsInFlight.store(inFlight.count, ordering: .relaxed)
        pumping = false
        if !waitingToSend.isEmpty || !inFlight.isEmpty || joinForUnknown { schedulePump() }
    }

    private func receiveReplies() {
        guard !inFlight.isEmpty, let connection = appender else { return }
        do {
            for (append, reply) in try inFlight.receive(on: connection) { settle(append, reply) }
        } catch {
            connectionBroke(error)
        }
    }

    private func sendWaiting() {
        if joinForUnknown {
            joinForUnknown = false
            // A node whose lease ended takes no new token before its quarantine is over; one
            // cut off from the log tries again once its reader reaches Redis.
            if fencing.withLock({ $0.lease.quarantined(at: Self.clock()) }) || !isReachable {
                retryJoin()
            } else {
                do { try join(connected()) } catch {
                    appendError(error)
                    retryJoin()
                }
            }
        }
        var taken = 0
        defer { waitingToSend.removeFirst(taken) }
        while taken < waitingToSend.count, !inFlight.isFull {
            let append = waitingToSend[taken]
            // Cut off from the log (CLUSTER.md §3.3): refused at once, never sent where it
            // would wait for a Redis that does not answer and stay unknown.
            if !isReachable {
                taken += 1
                metrics.appendFailures.add(1, ordering: .relaxed)
                append.failed(LogFailure("the cluster log is unreachable"))
                continue
            }
            if fencing.withLock({ $0.lease.quarantined(at: Self.clock()) }) {
                taken += 1
                metrics.appendFailures.add(1, ordering: .relaxed)
                append.failed(LogFailure("this node's cluster lease ended; it rejoins in a moment"))
                continue
            }
            let connection: RedisConnection
            do {
                connection = try connected()
                if fencing.withLock({ $0.lease.needsJoin }) {
                    // The join waits for its replies: only once every append in flight is answered.
                    guard inFlight.isEmpty else { break }
                    try join(connection)
                }
            } catch {
                taken += 1
                appendError(error)
                refuse(append, error)
                continue
            }
            var sending = append
            sending.entry.token = fencing.withLock { fencing in
                fencing.sent[append.entry.ticket] = fencing.lease.generation
                fencing.sentAt[append.entry.ticket] = Self.now()
                return fencing.lease.token
            }
            taken += 1
            do {
                try inFlight.send(appendCommand(sending.entry), for: sending, on: connection)
            } catch {
                refuse(append, error)
                connectionBroke(error)
            }
        }
        guard let appender, !inFlight.isEmpty else { return }
        do { try appender.flush() } catch { connectionBroke(error) }
    }

    /// An append's reply: its id (the answer comes from reading it back), or a refusal that
    /// answers this append only (`FENCED`: the next append takes a new token first).
    private func settle(_ append: PendingAppend, _ reply: RedisReply) {
        guard case .error(let message) = reply else {
            metrics.appended.add(1, ordering: .relaxed)
            return
        }
        metrics.redisErrors.add(1, ordering: .relaxed)
        if message.hasPrefix("FENCED") { fencing.withLock { $0.lease.needsJoin = true } }
        refuse(append, .server(message))
    }

    /// `append` surely did not get in: its waiter is answered.
    private func refuse(_ append: PendingAppend, _ error: RedisError) {
        fencing.withLock { fencing in
            fencing.sent[append.entry.ticket] = nil
            fencing.sentAt[append.entry.ticket] = nil
        }
        metrics.appendFailures.add(1, ordering: .relaxed)
        append.failed(LogFailure("the cluster log is unreachable: \(error)"))
    }

    /// The append connection broke: each append in flight may or may not be in the log. They
    /// stay sent under their generation, and the join (next pass) answers those that are not.
    private func connectionBroke(_ error: RedisError) {
        metrics.redisErrors.add(1, ordering: .relaxed)
        appender = nil
        fencing.withLock { $0.lease.needsJoin = true }
        if !inFlight.abandon().isEmpty { joinForUnknown = true }
    }

    /// Redis cannot be reached for the join that answers unknown appends: tried again shortly
    /// (until a join succeeds, or the lease ends and drops them), so none waits for a proposal
    /// that may never come.
    private func retryJoin() {
        appendQueue.asyncAfter(deadline: .now() + .milliseconds(Self.joinRetryMilliseconds)) { [self] in
            guard fencing.withLock({ $0.lease.needsJoin }) else { return }
            joinForUnknown = true
            schedulePump()
        }
    }

    static let joinRetryMilliseconds = 200

    /// After a failed connect, how long appends are refused without connecting again.
    static let reconnectPauseNanoseconds: UInt64 = 200_000_000

    /// A connect or join failed (nothing in flight).
    private func appendError(_ error: RedisError) {
        metrics.redisErrors.add(1, ordering: .relaxed)
        if error.closesConnection {
            appender = nil
            fencing.withLock { $0.lease.needsJoin = true }
        }
    }

    /// The append connection, made anew when it is broken or — with nothing in flight — Redis
    /// closed it meanwhile (so an append is never sent where it surely cannot arrive, which
    /// would leave it unknown until a join). While `unreachableUntil` after a failed connect,
    /// throws at once: appends waiting then are refused without each waiting for a connect.
    private func connected() throws(RedisError) -> RedisConnection {
        if let appender, inFlight.isEmpty ? appender.isOpenWhileIdle() : !appender.isBroken { return appender }
        if appender != nil {
            // As after any broken append connection, a new token first (§2.4).
            appender = nil
            fencing.withLock { $0.lease.needsJoin = true }
        }
        if Self.now() < unreachableUntil { throw .connectFailed("Redis did not answer a moment ago") }
        do throws(RedisError) {
            let connection = try RedisConnection(settings.endpoint, timeout: settings.timeout)
            // Named for `CLIENT LIST` (operators, tests); a Redis user without `CLIENT` appends anyway.
            do {
                try connection.command(["CLIENT", "SETNAME", RedisArgument(Self.appenderName(settings.node))])
            } catch  where !error.closesConnection {}
            appender = connection
            return connection
        } catch {
            unreachableUntil = Self.now() + Self.reconnectPauseNanoseconds
            throw error
        }
    }

    /// The reader reaches Redis again: the next append connects at once.
    func logReachable() {
        appendQueue.async { [self] in
            unreachableUntil = 0
            if joinForUnknown || !waitingToSend.isEmpty { schedulePump() }
        }
    }

    /// The append connection's `CLIENT SETNAME` (what `CLIENT LIST` shows for it).
    static func appenderName(_ node: String) -> String { "rivesync-append-" + clientName(node) }

    /// The log reader's `CLIENT SETNAME`.
    static func readerName(_ node: String) -> String { "rivesync-read-" + clientName(node) }

    private static func clientName(_ node: String) -> String {
        String(node.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    /// Takes a new token (the old one can append no more) and appends a `join` with it, waiting
    /// for each reply: call with nothing in flight.
    private func join(_ connection: RedisConnection) throws(RedisError) {
        let token = Self.newToken()
        let sentAt = Self.now()
        try connection.command([
            "SET", RedisArgument(settings.keys.lease(of: settings.node)), RedisArgument(token), "PX", Self.milliseconds(settings.lease),
        ])
        .expectStatus("OK")
        fencing.withLock { fencing in
            fencing.lease.took(token, sentAt: ClusterInstant(nanoseconds: sentAt))
            // Until the join is in the log too.
            fencing.lease.needsJoin = true
        }
        try connection.command(appendCommand(ClusterEntry(kind: .join, node: settings.node, token: token, ticket: 0)))
        fencing.withLock { $0.lease.needsJoin = false }
        // Its read-back answers every append left unknown before it.
        joinForUnknown = false
    }

    private func appendCommand(_ entry: ClusterEntry) -> [RedisArgument] {
        let log = RedisArgument(settings.keys.log)
        let lease = RedisArgument(settings.keys.lease(of: settings.node))
        if case .asset(let asset) = entry.kind {
            return [
                "EVAL", RedisArgument(ClusterScripts.appendAsset), 3, log, lease, RedisArgument(settings.keys.assets),
                RedisArgument(entry.token), RedisArgument(asset.id), RedisArgument("\(asset.byteCount) \(asset.mediaType)"),
            ] + entry.fields
        }
        return ["EVAL", RedisArgument(ClusterScripts.append), 2, log, lease, RedisArgument(entry.token)] + entry.fields
    }
}
