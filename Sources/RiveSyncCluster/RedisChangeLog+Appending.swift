import Dispatch
import RiveSyncClusterCore
import RiveSyncRedis

/// One step of the core's appending, as `appendQueue` performs it.
enum AppendStep: Sendable {
    /// Open the append connection.
    case connect
    /// Pipeline `ticket`'s append.
    case send(ticket: UInt64, [RedisArgument])
    /// Take a new token and append a `join` with it.
    case join
}

/// The append connection (protocol/CLUSTER.md §2.4), on `appendQueue`: it carries out the
/// core's `connect`, `send` and `join` and reports each answer back as an event. Appends are
/// pipelined — the core keeps at most `appendWindow` of them in flight — and their replies are
/// taken by passes queued behind the sends; the steps that come while a pass waits go out
/// together, with one write, in the next. Which reply answers which append, and what a broken
/// connection means, is the core's.
extension RedisChangeLog {
    /// Queues `steps` behind every step before them (from the worker's queue).
    func enqueue(_ steps: [AppendStep]) {
        appendQueue.async { [self] in
            stepsWaiting += steps
            guard !performing else { return }
            performing = true
            appendQueue.async { [self] in
                performing = false
                let steps = stepsWaiting
                stepsWaiting = []
                perform(steps)
            }
        }
    }

    /// Performs `steps` in order, then reports what happened (on `appendQueue`).
    private func perform(_ steps: [AppendStep]) {
        Self.confined(to: appendQueue)
        var events: [ClusterEvent] = []
        var notSent: [UInt64] = []
        // Reported where they were, before a later step's answer (a connect's, a join's).
        func reportNotSent() {
            guard !notSent.isEmpty else { return }
            events.append(.notSent(notSent, now: Self.clock()))
            notSent = []
        }
        for step in steps {
            switch step {
            case .connect:
                reportNotSent()
                events.append(connect())
            case .join:
                reportNotSent()
                events += join()
            case .send(let ticket, let command):
                // Never sent where it surely cannot arrive (a connection Redis closed while idle,
                // or one that broke before): the core sends it again on a new connection.
                if let appender, !inFlight.isEmpty || appender.isOpenWhileIdle() {
                    do throws(RedisError) {
                        try inFlight.send(command, for: ticket, on: appender)
                        continue
                    } catch {
                        events += connectionBroke()
                    }
                }
                appender = nil
                notSent.append(ticket)
            }
        }
        if let appender, !inFlight.isEmpty {
            do { try appender.flush() } catch { events += connectionBroke() }
        }
        reportNotSent()
        report(events)
        scheduleReceive()
    }

    /// Queues a pass taking replies behind what `appendQueue` holds, unless one is queued.
    private func scheduleReceive() {
        guard !receiving, !inFlight.isEmpty else { return }
        receiving = true
        appendQueue.async { [self] in
            receiving = false
            receiveReplies()
            scheduleReceive()
        }
    }

    /// Waits for the oldest append's reply and takes every reply that came with it: an id
    /// (the answer comes from reading it back) or a refusal (`FENCED`: the lease key no
    /// longer holds the token).
    private func receiveReplies() {
        Self.confined(to: appendQueue)
        guard let appender, !inFlight.isEmpty else { return }
        var events: [ClusterEvent] = []
        do {
            for (_, reply) in try inFlight.receive(on: appender) {
                if case .error(let message) = reply {
                    metrics.redisErrors.add(1, ordering: .relaxed)
                    events.append(.appendRefused(message: message, fenced: message.hasPrefix("FENCED"), now: Self.clock()))
                } else {
                    metrics.appended.add(1, ordering: .relaxed)
                    events.append(.appendAccepted(now: Self.clock()))
                }
            }
        } catch {
            events += connectionBroke()
        }
        report(events)
    }

    /// The append connection broke: each append in flight may or may not be in the log.
    private func connectionBroke() -> [ClusterEvent] {
        metrics.redisErrors.add(1, ordering: .relaxed)
        appender?.close()
        appender = nil
        _ = inFlight.abandon()
        return [.appendConnectionBroke(now: Self.clock())]
    }

    private func report(_ events: [ClusterEvent]) {
        metrics.appendsInFlight.store(inFlight.count, ordering: .relaxed)
        guard !events.isEmpty else { return }
        deliver { [self] in handle(events.map { ($0, nil) }) }
    }

    /// A new append connection, named for `CLIENT LIST` (operators, tests; a Redis user
    /// without `CLIENT` appends anyway).
    private func connect() -> ClusterEvent {
        appender?.close()
        appender = nil
        do throws(RedisError) {
            let connection = try RedisConnection(settings.endpoint, timeout: settings.timeout)
            do {
                try connection.command(["CLIENT", "SETNAME", RedisArgument(Self.appenderName(settings.node))])
            } catch  where !error.closesConnection {}
            appender = connection
            return .connected(now: Self.clock())
        } catch {
            metrics.redisErrors.add(1, ordering: .relaxed)
            return .connectFailed(now: Self.clock())
        }
    }

    /// Takes a new token (the old one can append no more) and appends a `join` with it, waiting
    /// for each reply (the core asks with nothing in flight).
    private func join() -> [ClusterEvent] {
        let token = Self.newToken()
        let sentAt = Self.clock()
        var events: [ClusterEvent] = []
        do throws(RedisError) {
            guard let appender else { throw .connectionLost("no append connection") }
            try appender.command([
                "SET", RedisArgument(settings.keys.lease(of: settings.node)), RedisArgument(token), "PX", Self.milliseconds(settings.lease),
            ])
            .expectStatus("OK")
            events.append(.tokenTaken(token: token, sentAt: sentAt, now: Self.clock()))
            try appender.command(appendCommand(ClusterEntry(kind: .join, node: settings.node, token: token, ticket: 0)))
            return [.joined(token: token, sentAt: sentAt, now: Self.clock())]
        } catch {
            metrics.redisErrors.add(1, ordering: .relaxed)
            if error.closesConnection {
                appender?.close()
                appender = nil
            }
            return events + [.joinFailed(connectionClosed: error.closesConnection, now: Self.clock())]
        }
    }

    /// The append command of `entry`: the fencing script (CLUSTER.md §2.4).
    func appendCommand(_ entry: ClusterEntry) -> [RedisArgument] {
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

    /// The append connection's `CLIENT SETNAME` (what `CLIENT LIST` shows for it).
    static func appenderName(_ node: String) -> String { "rivesync-append-" + clientName(node) }

    /// The log reader's `CLIENT SETNAME`.
    static func readerName(_ node: String) -> String { "rivesync-read-" + clientName(node) }

    private static func clientName(_ node: String) -> String {
        String(node.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }
}
