internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol
import RiveSyncWebSocket

extension Session {
    /// Handles one event of the connection of `generation` (events of older connections are
    /// dropped).
    func receive(_ event: WebSocketEvent, generation current: Int) {
        guard current == generation else { return }
        switch event {
        case .opened:
            openWaiter?.resume()
            openWaiter = nil
        case .message(let bytes):
            receive(bytes)
        case .failed(let reason):
            linkEnded(WorkerError.connectionFailed("\(settings.url): \(reason)"), reconnecting: true)
        case .closed(let code, let reason):
            let error =
                code == CloseCode.policyViolation.rawValue
                ? WorkerError.unauthorized("\(settings.url): closed (1008) \(reason)")
                : WorkerError.connectionFailed("\(settings.url): closed (\(code.map(String.init) ?? "no code")) \(reason)")
            linkEnded(error, reconnecting: CloseCode.allowsReconnect(afterClose: code))
        }
    }

    /// Decodes one message with the protocol's decoder, typed by the mirrors' schemas and
    /// replicas. What a newer daemon may send (a message type without a waiting request, an
    /// unknown error code) and batches of targets this client no longer follows are not
    /// violations; anything else that does not decode closes the connection with 1002.
    private func receive(_ bytes: [UInt8]) {
        let json: JSONValue
        do {
            json = try JSONParser(maxDepth: 256, maxBytes: Int.max).parse(bytes)
        } catch {
            return violated("a message that is not JSON (\(error))")
        }
        let message: ServerMessage
        do {
            message = try ServerMessage(json, types: MirrorTypes(mirrors: mirrors))
        } catch .unknownType(let type, let id) {
            // §14: a new message type is ignored, unless a request waits for it as its reply.
            guard let id = id?.intValue, let entry = pending.removeValue(forKey: id) else { return }
            return entry.fail(WorkerError.protocolViolation("unknown message type '\(type)' in reply to request \(id)"))
        } catch .unknownErrorCode(let code, let text, let id) {
            guard let id = id?.intValue, let entry = pending.removeValue(forKey: id) else { return }
            return entry.fail(ServerFailure(unknownCode: code, message: text))
        } catch .untypedTarget(_, let target) {
            // A late batch or snapshot of a subscription that has ended here.
            guard mirrors[target] == nil else { return violated("a message of '\(target)' without its schema") }
            return
        } catch .untypedInstance(let target, let seq, _) {
            // The batch does not follow the replica (or is older than it): start afresh.
            if let replica = mirrors[target]?.replica, seq > replica.seq { resubscribeAfresh(target) }
            return
        } catch {
            return violated("\(error)")
        }
        handle(message)
    }

    private func handle(_ message: ServerMessage) {
        if case .batch(let batch) = message {
            guard mirrors[batch.target] != nil else { return }
            do {
                try mirrors[batch.target]!.apply(batch)
            } catch {
                resubscribeAfresh(batch.target)
            }
            return
        }
        guard let id = message.id?.intValue, let entry = pending.removeValue(forKey: id) else {
            switch message {
            case .snapshot(let snapshot, _) where mirrors[snapshot.target] != nil: installSnapshot(snapshot)
            case .unsubscribed(let target, let reason, nil) where mirrors[target] != nil: endSubscription(target, reason: reason)
            case .freshness(let fresh): freshness.update(fresh)
            case .presence(let message) where mirrors[message.target] != nil: presence.apply(message.target, message.changes)
            default: break
            }
            return
        }
        switch entry {
        case .request(let continuation):
            if case .error(let error, _) = message {
                continuation.resume(throwing: ServerFailure(error))
            } else {
                continuation.resume(returning: message)
            }
        case .reply(let reply, let domain, let pathPrefix, let onSuccess):
            if case .error(let error, _) = message {
                reply.complete(.failure(ServerFailure(error).typed(domain, pathPrefix: pathPrefix)))
            } else {
                onSuccess?(self)
                reply.complete(.success(message))
            }
        case .subscription(let target):
            guard mirrors[target] != nil else { return }
            switch message {
            case .snapshot(let snapshot, _): installSnapshot(snapshot)
            case .subscribed(let subscribed, _):
                mirrors[target]!.epoch = subscribed.epoch
                if let members = subscribed.presence { presence.reset(target, members: members) }
            case .error(let error, _):
                mirrors[target]!.fail(ServerFailure(error).typed(.stateMachine))
                mirrors[target] = nil
            default:
                mirrors[target]!.fail(message.unexpected(.snapshot))
                mirrors[target] = nil
            }
        }
    }

    /// The daemon sent what this client cannot read: close with 1002 and end everything with
    /// `WorkerError.protocolViolation` (no reconnect: the daemon would say the same again).
    private func violated(_ reason: String) {
        let error = WorkerError.protocolViolation(reason)
        link?.close(code: CloseCode.protocolError.rawValue, reason: "undecodable message")
        for entry in pending.values { entry.fail(error) }
        pending = [:]
        linkEnded(error, reconnecting: false)
    }

    /// The daemon ended a subscription (the target was deleted, or the token may no longer read
    /// it): its streams end with the reason.
    private func endSubscription(_ target: String, reason: ServerMessage.UnsubscribeReason?) {
        let error: any Error =
            reason == .deleted
            ? StateMachineError.targetDeleted(target)
            : WorkerError.forbidden("the daemon ended the subscription to '\(target)' (the token's scopes changed)")
        mirrors[target]!.fail(error)
        mirrors[target] = nil
    }

    private func installSnapshot(_ snapshot: ServerMessage.Snapshot) {
        guard case .target(let bindings, let instances) = snapshot.content else {
            mirrors[snapshot.target]!.fail(
                WorkerError.protocolViolation("a path snapshot of '\(snapshot.target)' to a whole-target subscription"))
            mirrors[snapshot.target] = nil
            return
        }
        if let members = snapshot.presence { presence.reset(snapshot.target, members: members) }
        mirrors[snapshot.target]!.install(
            snapshot: TargetSnapshot(target: snapshot.target, seq: snapshot.seq, bindings: bindings, instances: instances),
            epoch: snapshot.epoch)
    }

    /// A batch did not follow: drop the replica and start from a fresh snapshot.
    private func resubscribeAfresh(_ target: String) {
        sendSubscribe(target, cursor: nil)
    }

    /// The connection ended: fail what waits for a reply, then reconnect (or, without
    /// `reconnecting`, close for good with `error`).
    func linkEnded(_ error: WorkerError, reconnecting: Bool) {
        link = nil
        generation += 1
        if let openWaiter {
            self.openWaiter = nil
            openWaiter.resume(throwing: error)
            return
        }
        for entry in pending.values { entry.fail(WorkerError.disconnected) }
        pending = [:]
        guard phase == .ready else { return }
        guard settings.reconnect, reconnecting else {
            phase = .closed
            failEverything(reconnecting ? WorkerError.disconnected : error)
            return
        }
        phase = .reconnecting
        Task { await reconnectLoop() }
    }

    /// Connects again with growing pauses (50 ms doubling up to 2 s), then resumes every
    /// subscription from its cursor and lets waiting requests go.
    private func reconnectLoop() async {
        var pause: Duration = .milliseconds(50)
        while phase == .reconnecting {
            while reconnectHeld, phase == .reconnecting { await withCheckedContinuation { holdWaiter = $0 } }
            try? await Task.sleep(for: pause)  // cancelled at close: the loop's phase check ends it
            guard phase == .reconnecting else { return }
            do {
                try await openLink()
            } catch {
                link?.close(code: CloseCode.normal.rawValue, reason: "")
                link = nil
                pause = min(pause * 2, .seconds(2))
                continue
            }
            guard link != nil else { continue }
            phase = .ready
            for name in mirrors.keys.sorted() {
                let mirror = mirrors[name]!
                let cursor = mirror.replica.map { Cursor(epoch: mirror.epoch, seq: $0.seq) }
                sendSubscribe(name, cursor: cursor)
            }
            rejoinPresence()
            for waiter in readyWaiters { waiter.resume() }
            readyWaiters = []
        }
    }

    /// Test hook: drops the connection as a network failure would; with `holdingReconnect`
    /// the client stays disconnected until `releaseReconnect()`.
    func dropConnection(holdingReconnect: Bool) {
        reconnectHeld = holdingReconnect
        link?.close(code: 4000, reason: "dropped by test")
        linkEnded(.disconnected, reconnecting: true)
    }

    /// Test hook: lets a held reconnect loop go on.
    func releaseReconnect() {
        reconnectHeld = false
        holdWaiter?.resume()
        holdWaiter = nil
    }
}
