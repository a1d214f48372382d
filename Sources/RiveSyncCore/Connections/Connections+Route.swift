import RiveSyncJSON
import RiveSyncProtocol

extension Connections {
    /// Answers daemon-wide requests, starts background work, or routes to the owning worker.
    /// `state`: the connection's in `states` (nothing here adds or removes a connection);
    /// `sender`: its credentials' (`identity`'s grants, which the request was checked against:
    /// the worker's too).
    mutating func route(
        _ connection: ConnectionID, at state: StateIndex, _ request: consuming Request, identity: Identity, sender: RequestSender,
        into out: inout ActionList<ConnectionAction>
    ) -> Outcome {
        let limits = settings.limits
        switch request.body {
        case .ping:
            out.append(.send(frame(.pong(id: request.id)), to: Recipients(connection)))
            return .answered
        case .listFiles:
            out.append(.send(frame(files(id: request.id)), to: Recipients(connection)))
            return .answered
        case .listTargets(let page):
            out.append(.startBackground(connection, .listTargets(page, identity: identity), id: request.id))
            return .background
        case .upload(let kind, let data, let mediaType):
            guard data.count <= limits.maxAssetBytes else {
                return fail(connection, .limit("maxAssetBytes", limits.maxAssetBytes), id: request.id, into: &out)
            }
            out.append(.startBackground(connection, .upload(kind: kind, data: data, mediaType: mediaType), id: request.id))
            return .background
        case .loadFile(let name, let content, let part):
            if part == nil { states.values[state].value.fileInParts = nil }
            guard case .riv(let bytes) = content else {
                out.append(.startBackground(connection, .loadFile(name: name, content: content, worker: nextFileWorker()), id: request.id))
                return .background
            }
            return loadRiv(connection, name: name, bytes: bytes, part: part, id: request.id, into: &out)
        case .hello:
            return .answered
        default:
            break
        }
        let worker: Int
        switch owner(of: request.body) {
        case .success(let index): worker = index
        case .failure(let error):
            if case .unsubscribe(let target) = request.body { states.values[state].value.unsubscribe(target) }
            return fail(connection, error, id: request.id, into: &out)
        }
        switch request.body {
        case .subscribe(let target, _, _):
            let current = states.values[state].value
            let known = current.subscriptions[target] != nil || current.subscribing[target] != nil
            if !known, current.subscriptions.count + current.subscribing.count >= limits.maxSubscriptions {
                return fail(connection, .limit("maxSubscriptions", limits.maxSubscriptions), id: request.id, into: &out)
            }
            states.values[state].value.subscribing[target, default: 0] += 1
        case .unsubscribe(let target):
            states.values[state].value.unsubscribe(target)
        case .deleteTarget(let target):
            for other in states.keys { states[other]!.value.unsubscribe(target) }
        default:
            break
        }
        // Moved into the action, not copied.
        out.append(.route(connection, consume request, worker: worker, sender: sender))
        return .routed
    }

    /// Applies the tokens as they are now to every open connection: a revoked one is refused;
    /// a subscription the new scopes no longer allow is ended (the worker sends `unsubscribed`).
    mutating func recheck(into out: inout ActionList<ConnectionAction>) {
        for connection in states.keys.sorted() {
            guard let state = states.index(forKey: connection), let identity = states.values[state].value.identity else { continue }
            guard let credentials = credentials(at: state, identity: identity) else {
                refuse(connection, id: nil, reason: "token revoked", into: &out)
                continue
            }
            for (target, paths) in states.values[state].value.subscriptions.sorted(by: { $0.key < $1.key })
            where !credentials.grants.allowsSubscription(to: target, paths: paths) {
                states.values[state].value.unsubscribe(target)
                let unsubscribe = ClientRequest.unsubscribe(target: target)
                if case .success(let worker) = owner(of: unsubscribe) {
                    out.append(.route(connection, Request(id: nil, body: unsubscribe), worker: worker, sender: credentials.sender))
                }
            }
        }
    }
}
