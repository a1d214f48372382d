internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

/// Every target's presence as this client sees it (the members its subscription carries, and
/// the streams of `Presence.members()`), and the presences it joined, to join again after a
/// reconnect.
final class PresenceChannels: Sendable {
    private struct Target {
        var members: [PresenceEntry] = []
        var listeners: [Int: AsyncStream<[PresenceMember]>.Continuation] = [:]
    }

    private struct State {
        var targets: [String: Target] = [:]
        var joined: [String: (key: String, state: JSONValue)] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    func current(_ target: String) -> [PresenceMember] {
        state.withLock { $0.targets[target]?.members.map(PresenceMember.init) ?? [] }
    }

    /// A stream that yields the current list, then the list after every change.
    func stream(_ target: String) -> AsyncStream<[PresenceMember]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [PresenceMember].self)
        let id = state.withLock { state in
            state.nextID += 1
            state.targets[target, default: Target()].listeners[state.nextID] = continuation
            continuation.yield(state.targets[target]!.members.map(PresenceMember.init))
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.targets[target]?.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// A snapshot's or resumed subscription's members replace the list.
    func reset(_ target: String, members: [PresenceEntry]) {
        change(target) { $0 = members }
    }

    /// A presence message's changes, applied in order.
    func apply(_ target: String, _ changes: [PresenceChange]) {
        change(target) { members in
            for change in changes {
                switch change {
                case .join(let member, let state), .update(let member, let state):
                    if let index = members.firstIndex(where: { $0.member == member }) {
                        members[index].state = state
                    } else {
                        members.append(PresenceEntry(member: member, state: state))
                    }
                case .leave(let member, _):
                    members.removeAll { $0.member == member }
                }
            }
        }
    }

    private func change(_ target: String, _ body: (inout [PresenceEntry]) -> Void) {
        let (listeners, members) = state.withLock { state in
            body(&state.targets[target, default: Target()].members)
            let target = state.targets[target]!
            return (Array(target.listeners.values), target.members.map(PresenceMember.init))
        }
        for listener in listeners { listener.yield(members) }
    }

    func joined(_ target: String, key: String, state json: JSONValue) { state.withLock { $0.joined[target] = (key, json) } }

    func updated(_ target: String, state json: JSONValue) { state.withLock { $0.joined[target]?.state = json } }

    func left(_ target: String) { _ = state.withLock { $0.joined.removeValue(forKey: target) } }

    /// The joins to send again on a new connection (the same key resumes the member).
    var rejoins: [PresenceRequest] {
        state.withLock { state in
            state.joined.sorted { $0.key < $1.key }.map { .join(target: $0.key, key: $0.value.key, state: $0.value.state) }
        }
    }

    func finish() {
        for listener in state.withLock({ $0.targets.values.flatMap(\.listeners.values) }) { listener.finish() }
    }
}

extension Session {
    /// Joins again, with the same keys, every presence this client had joined (after a
    /// reconnect: the members resume within the daemon's grace period).
    func rejoinPresence() {
        guard let link else { return }
        for join in presence.rejoins {
            let id = nextRequestID
            nextRequestID += 1
            pending[id] = .reply(Reply(), .stateMachine, pathPrefix: "", onSuccess: nil)
            link.send(text: Request(id: .number(Double(id)), body: .presence(join)).jsonValue.jsonText)
        }
    }
}
