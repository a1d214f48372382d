import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// Subscribes a session to a target: an atomic snapshot (or, with a usable cursor, the
    /// exact missing batches) and then every later batch; `presence`: the connection may see
    /// the target's presence (the snapshot or `subscribed` carries the members, and presence
    /// messages follow).
    func subscribe(
        _ session: ConnectionID, to target: String, paths: [String]?, cursor: Cursor?, id: JSONValue?, presence: Bool
    ) throws(WireError) {
        let record = try record(target)
        let runtime = files[record.file]!
        var values: [(String, JSONValue)] = []
        for path in paths ?? [] {
            values.append((path, try Self.subscriptionValue(at: path, in: target, runtime: runtime)))
        }
        let seq = (try? runtime.target(target).seq) ?? 0  // resolved just above: cannot fail
        var out: [WorkerAction] = []
        if let cursor, let missing = missingBatches(record, after: cursor, currentSeq: seq, epoch: epoch(of: target)),
            let replay = replayed(missing, of: target, paths: paths)
        {
            let reply = ServerMessage.subscribed(
                ServerMessage.Subscribed(
                    target: target, epoch: epoch(of: target), seq: cursor.seq, resumed: true,
                    presence: presenceSnapshot(of: target, sees: presence)),
                id: id)
            out.append(.send(frame(reply), to: Recipients(session)))
            for batch in replay { out.append(.send(batch, to: Recipients(session))) }
        } else {
            let message = snapshot(
                of: target, paths: paths, values: values, id: id, reason: nil, resumed: cursor == nil ? nil : false, presence: presence)
            out.append(.send(frame(message), to: Recipients(session)))
        }
        if targets[target]!.subscribers.updateValue(Subscription(paths: paths, presence: presence), forKey: session) == nil {
            count(.subscriptions(target: target, delta: 1))
        }
        outbox += out
    }

    /// The value a path subscription starts from: a property's value, or for a bare global
    /// slot (`@Theme`) the instance bound in it.
    static func subscriptionValue(at path: String, in target: String, runtime: FileRuntime) throws(WireError) -> JSONValue {
        do {
            if path.hasPrefix("@"), !path.contains("/") {
                guard let name = PropertyPath.unescape(String(path.dropFirst())) else { throw PropertyError.invalidPath(path) }
                guard let instance = try runtime.target(target).instance(in: .global(name)) else {
                    throw PropertyError.noSuchSlot(path: path)
                }
                return ValueCodec.encode(.viewModel(instance))
            }
            return ValueCodec.encode(try runtime.value(at: path, in: target))
        } catch {
            throw WireError(error)
        }
    }

    /// The frames that replay `missing` to a subscription to `paths` (all of them, as kept,
    /// to a whole-target one); nil when a kept batch cannot be read back to filter it: the
    /// resume then gets a snapshot.
    private func replayed(_ missing: [HistoryEntry], of target: String, paths: [String]?) -> [Frame]? {
        guard let paths else { return missing.map(\.frame) }
        let runtime = files[targets[target]!.file]!
        do {
            return try PathReplay.frames(
                missing, paths: paths, epoch: epoch(of: target), withAuthors: settings.recordsAuthors,
                headroom: settings.frameHeadroom, batch: { try $0.batch(of: target, in: runtime) })
        } catch {
            logLine(.warning, "a kept batch cannot be read back; resuming with a snapshot", [("target", target), ("reason", "\(error)")])
            return nil
        }
    }

    /// The batches after the cursor, if the cursor is of this epoch and all of them are still
    /// in the history; nil when a fresh snapshot is needed instead.
    /// The replay must also fit in half the send queue (it is sent at once); a resume from
    /// further back gets a snapshot instead.
    private func missingBatches(_ record: TargetRecord, after cursor: Cursor, currentSeq: UInt64, epoch: String) -> [HistoryEntry]? {
        guard cursor.epoch == epoch, cursor.seq <= currentSeq else { return nil }
        if cursor.seq == currentSeq { return [] }
        guard let first = record.history.first, first.seq <= cursor.seq + 1 else { return nil }
        let missing = record.history.ordered.filter { $0.seq > cursor.seq }
        let budget = settings.limits.maxSendQueueBytes / 2
        guard missing.reduce(0, { $0 + $1.frame.count }) <= budget else { return nil }
        return missing
    }

    /// A snapshot message: the whole target, or the values at `paths`; with the target's
    /// presence members when `presence` (the connection may see them).
    func snapshot(
        of target: String, paths: [String]?, values: [(String, JSONValue)], id: JSONValue?, reason: ServerMessage.SnapshotReason?,
        resumed: Bool?, presence: Bool
    ) -> ServerMessage {
        let runtime = files[targets[target]!.file]!
        let seq: UInt64
        let content: ServerMessage.SnapshotContent
        // The target is known (the caller resolved it), so the `try?`s here cannot fail.
        if paths == nil, let snapshot = try? runtime.snapshot(of: target) {
            seq = snapshot.seq
            content = .target(bindings: snapshot.bindings, instances: snapshot.instances)
        } else {
            seq = (try? runtime.target(target).seq) ?? 0
            content = .values(values.map { ServerMessage.PathValue(path: $0.0, value: $0.1) })
        }
        return .snapshot(
            ServerMessage.Snapshot(
                target: target, epoch: epoch(of: target), seq: seq, content: content, reason: reason, resumed: resumed,
                presence: presenceSnapshot(of: target, sees: presence)),
            id: id)
    }

    /// Checks lagging subscribers every 20 ms (on the injected clock) while any lags.
    func scheduleCatchUpCheck() {
        guard !catchUpCheckScheduled else { return }
        catchUpCheckScheduled = true
        outbox.append(.schedule(.catchUpCheck, at: environment.now() + Self.catchUpCheckInterval))
    }

    /// How often lagging subscribers are checked, in nanoseconds.
    static let catchUpCheckInterval: UInt64 = 20_000_000

    /// Once a lagging connection's send queue has drained, it gets a catch-up snapshot per
    /// lagging subscription and its batches resume.
    func checkCatchUp() {
        catchUpCheckScheduled = false
        let maxSendQueueBytes = settings.limits.maxSendQueueBytes
        var stillLagging = false
        for name in targets.keys.sorted() {
            for (connection, subscription) in targets[name]!.subscribers.sorted(by: { $0.key < $1.key }) where subscription.lagging {
                guard Backlog.caughtUp(queuedBytes: sendQueues.queuedBytes(connection), maxSendQueueBytes: maxSendQueueBytes) else {
                    stillLagging = true
                    continue
                }
                let runtime = files[targets[name]!.file]!
                let values = (subscription.paths ?? []).compactMap { path in
                    // A path that no longer resolves (its list item removed) is left out of the refresh.
                    (try? Self.subscriptionValue(at: path, in: name, runtime: runtime)).map { (path, $0) }
                }
                let message = snapshot(
                    of: name, paths: subscription.paths, values: values, id: nil, reason: .catchUp, resumed: nil,
                    presence: subscription.presence)
                outbox.append(.send(frame(message), to: Recipients(connection)))
                targets[name]!.subscribers[connection]!.lagging = false
                count(.catchUp)
            }
        }
        if stillLagging { scheduleCatchUpCheck() }
    }

    /// Forgets a closed connection's subscriptions and pending acks (its commands still apply).
    func connectionClosed(_ connection: ConnectionID) {
        // The names first: iterating the dictionary while changing its records would copy them.
        for name in Array(targets.keys) {
            if targets[name]!.subscribers.removeValue(forKey: connection) != nil {
                count(.subscriptions(target: name, delta: -1))
            }
            targets[name]!.pending.removeAll { $0.connection == connection }
        }
    }
}
