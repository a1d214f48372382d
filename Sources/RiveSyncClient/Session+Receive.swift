import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
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
            guard let json = try? JSONParser(maxDepth: 256, maxBytes: Int.max).parse(bytes) else { return }
            handle(json)
        case .failed(let reason):
            linkEnded(WorkerError.connectionFailed("\(settings.url): \(reason)"), reconnecting: true)
        case .closed(let code, let reason):
            let error =
                code == 1008
                ? WorkerError.unauthorized("\(settings.url): closed (1008) \(reason)")
                : WorkerError.connectionFailed("\(settings.url): closed (\(code.map(String.init) ?? "no code")) \(reason)")
            linkEnded(error, reconnecting: event.allowsReconnect)
        }
    }

    private func handle(_ json: JSONValue) {
        let type = json["type"]?.stringValue ?? ""
        if type == "batch" {
            guard let target = json["target"]?.stringValue, mirrors[target] != nil else { return }
            do {
                try mirrors[target]!.apply(batch: json)
            } catch {
                resubscribeAfresh(target)
            }
            return
        }
        guard let id = json["id"]?.intValue, let entry = pending.removeValue(forKey: id) else {
            if type == "snapshot", let target = json["target"]?.stringValue, mirrors[target] != nil {
                installSnapshot(json, in: target)
            }
            if type == "unsubscribed", json["id"] == nil, let target = json["target"]?.stringValue, mirrors[target] != nil {
                endSubscription(target, reason: json["reason"]?.stringValue)
            }
            return
        }
        switch entry {
        case .request(let continuation):
            if type == "error" { continuation.resume(throwing: ServerFailure(json)) } else { continuation.resume(returning: json) }
        case .reply(let reply, let domain, let pathPrefix, let onSuccess):
            if type == "error" {
                reply.complete(.failure(ServerFailure(json).typed(domain, pathPrefix: pathPrefix)))
            } else {
                onSuccess?(self)
                reply.complete(.success(json))
            }
        case .subscription(let target):
            guard mirrors[target] != nil else { return }
            switch type {
            case "snapshot": installSnapshot(json, in: target)
            case "subscribed": mirrors[target]!.epoch = json["epoch"]?.stringValue ?? epoch
            default:
                mirrors[target]!.fail(ServerFailure(json).typed(.stateMachine))
                mirrors[target] = nil
            }
        }
    }

    /// The daemon ended a subscription (the target was deleted, or the token may no longer read
    /// it): its streams end with the reason.
    private func endSubscription(_ target: String, reason: String?) {
        let error: any Error =
            reason == "deleted"
            ? StateMachineError.targetDeleted(target)
            : WorkerError.forbidden("the daemon ended the subscription to '\(target)' (the token's scopes changed)")
        mirrors[target]!.fail(error)
        mirrors[target] = nil
    }

    private func installSnapshot(_ json: JSONValue, in target: String) {
        do {
            try mirrors[target]!.install(snapshot: json, epoch: json["epoch"]?.stringValue ?? epoch)
        } catch {
            mirrors[target]!.fail(WorkerError.server(code: "invalid_data", message: "snapshot of '\(target)': \(error)"))
            mirrors[target] = nil
        }
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
            try? await Task.sleep(for: pause)
            guard phase == .reconnecting else { return }
            do {
                try await openLink()
            } catch {
                link?.close(code: 1000, reason: "")
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
