import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// A target's presence in the worker (PROTOCOL.md §15): its members, and the timers that pace
/// its messages and end grace periods. Never journaled; it goes with the target's record.
struct PresenceRecord {
    var members = TargetPresence<ConnectionID>()
    /// A `presenceMessage` timer is pending.
    var messageScheduled = false
    /// The deadline of the earliest pending `presenceGrace` timer, if any.
    var graceTimer: UInt64?
}

extension WorkerCore {
    /// Answers a presence request, then sends the target's presence message if one is due (so
    /// the sender's reply comes before the change it made reaches subscribers).
    func presence(_ request: PresenceRequest, id: JSONValue?, session: ConnectionID, grants: any RequestGrants) throws(WireError) {
        let target = request.target
        _ = try record(target)
        preparePresence(target)
        let now = environment.now()
        let reply: ServerMessage
        do {
            switch request {
            case .join(_, let key, let state):
                let joined = try targets[target]!.presence.members.join(
                    session, owner: grants.presenceOwner, key: key,
                    keyDigest: presenceKeyDigest(owner: grants.presenceOwner, key: key), state: state, now: now)
                reply = .presenceJoined(target: target, member: joined.member, resumed: joined.resumed, id: id)
            case .update(_, let state):
                try targets[target]!.presence.members.update(session, state: state, now: now)
                reply = .presenceUpdated(target: target, id: id)
            case .leave:
                try targets[target]!.presence.members.leave(session)
                reply = .presenceLeft(target: target, id: id)
            case .list:
                let members = targets[target]!.presence.members.current
                reply = .presenceMembers(target: target, seq: currentSeq(of: target), members: members, id: id)
            }
        } catch {
            throw WireError(error, target: target)
        }
        send(reply, to: session)
        schedulePresenceMessage(target)
    }

    /// The members a new subscription of a connection that may see presence starts from:
    /// what the target's subscribers have been told so far (nil: it may not see them).
    func presenceSnapshot(of target: String, sees: Bool) -> [PresenceEntry]? {
        sees ? targets[target]?.presence.members.published : nil
    }

    /// Sends the target's coalesced presence message now if its interval allows (one per
    /// `1 / rate` s), else asks for a timer at the interval's end; nothing when nothing changed.
    func schedulePresenceMessage(_ target: String) {
        guard let record = targets[target], !record.presence.messageScheduled else { return }
        let now = environment.now()
        guard let due = record.presence.members.messageDue(now: now, interval: AdvancePacing.interval(rate: record.rate)) else {
            return
        }
        guard due > now else { return sendPresenceMessage(target, now: now) }
        targets[target]!.presence.messageScheduled = true
        outbox.append(.schedule(.presenceMessage(target: target), at: due))
    }

    func presenceMessageDue(_ target: String) {
        guard targets[target] != nil else { return }
        targets[target]!.presence.messageScheduled = false
        schedulePresenceMessage(target)
    }

    /// The net changes since the last message, to every subscriber that may see presence and
    /// is not lagging (a lagging one gets the members in its catch-up snapshot instead). The
    /// message names the target's current seq: it follows that batch, which was sent already.
    private func sendPresenceMessage(_ target: String, now: UInt64) {
        announcePresence(target, now: now)
        let changes = targets[target]!.presence.members.takeChanges(now: now)
        guard !changes.isEmpty else { return }
        let maxSendQueueBytes = settings.limits.maxSendQueueBytes
        var receivers = Recipients()
        for (connection, subscription) in targets[target]!.subscribers.sorted(by: { $0.key < $1.key })
        where subscription.presence && !subscription.lagging {
            if Backlog.lags(queuedBytes: sendQueues.queuedBytes(connection), maxSendQueueBytes: maxSendQueueBytes) {
                targets[target]!.subscribers[connection]!.lagging = true
                scheduleCatchUpCheck()
            } else {
                receivers.append(connection)
            }
        }
        guard !receivers.isEmpty else { return }
        if Backlog.lags(queuedBytes: sendQueues.total, maxSendQueueBytes: maxSendQueueBytes) { fannedOut.formUnion(receivers) }
        let message = PresenceMessage(target: target, epoch: epoch(of: target), seq: currentSeq(of: target), changes: changes)
        outbox.append(.send(frame(.presence(message)), to: receivers))
    }

    /// A connection closed: its members start their grace periods.
    func presenceDisconnected(_ connection: ConnectionID) {
        let now = environment.now()
        for name in targets.keys.sorted() {
            preparePresence(name)
            guard let deadline = targets[name]!.presence.members.disconnected(connection, now: now) else { continue }
            scheduleGrace(name, at: deadline)
        }
    }

    func scheduleGrace(_ target: String, at deadline: UInt64) {
        if let pending = targets[target]!.presence.graceTimer, pending <= deadline { return }
        targets[target]!.presence.graceTimer = deadline
        outbox.append(.schedule(.presenceGrace(target: target), at: deadline))
    }

    /// Members whose grace period ended leave (`disconnected`); the next deadline gets a timer.
    func presenceGraceEnded(_ target: String) {
        guard targets[target] != nil else { return }
        targets[target]!.presence.graceTimer = nil
        if let next = targets[target]!.presence.members.expire(now: environment.now()) { scheduleGrace(target, at: next) }
        schedulePresenceMessage(target)
    }

    /// The seq of the target's last batch (every batch applied is sent in the same step).
    func currentSeq(of target: String) -> UInt64 {
        guard let record = targets[target] else { return 0 }
        return (try? files[record.file]?.target(target).seq) ?? 0  // held by `targets`: cannot fail
    }
}
