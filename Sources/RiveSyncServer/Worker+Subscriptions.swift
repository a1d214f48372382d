import Dispatch
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

extension Worker {
    /// Subscribes a session to a target: an atomic snapshot (or, with a usable cursor, the
    /// exact missing batches) and then every later batch.
    func subscribe(_ session: SessionID, to target: String, paths: [String]?, cursor: Cursor?, id: JSONValue?) throws(WireError) {
        let record = try record(target)
        let runtime = files[record.file]!
        var values: [(String, JSONValue)] = []
        for path in paths ?? [] {
            values.append((path, try Self.subscriptionValue(at: path, in: target, runtime: runtime)))
        }
        let seq = (try? runtime.target(target).seq) ?? 0
        var out: [WebSocketServer.Command] = []
        if let cursor, let missing = missingBatches(record, after: cursor, currentSeq: seq, epoch: epoch(of: target)) {
            let reply = ServerMessage.subscribed(ServerMessage.Subscribed(target: target, epoch: epoch(of: target), seq: cursor.seq, resumed: true), id: id)
            out.append(.send(ServerContext.payload(reply), to: [session]))
            for entry in missing {
                if let paths {
                    let effects = PathFilter.effects(entry.batch.effects, visibleTo: paths)
                    guard !effects.isEmpty else { continue }
                    let message = ServerMessage.batch(ServerMessage.Batch(entry.batch, epoch: epoch(of: target), effects: effects))
                    out.append(.send(ServerContext.payload(message), to: [session]))
                } else {
                    out.append(.send(entry.payload, to: [session]))
                }
            }
        } else {
            out.append(.send(ServerContext.payload(snapshot(of: target, paths: paths, values: values, id: id, reason: nil, resumed: cursor == nil ? nil : false)), to: [session]))
        }
        if targets[target]!.subscribers.updateValue(Subscription(paths: paths), forKey: session) == nil {
            context.metrics.add(1, to: .subscriptions, of: target)
        }
        context.submit(out)
    }

    /// The value a path subscription starts from: a property's value, or for a bare global
    /// slot (`@Theme`) the instance bound in it.
    static func subscriptionValue(at path: String, in target: String, runtime: FileRuntime) throws(WireError) -> JSONValue {
        do {
            if path.hasPrefix("@"), !path.contains("/") {
                guard let instance = try runtime.target(target).instance(in: .global(String(path.dropFirst()))) else {
                    throw PropertyError.noSuchSlot(path: path)
                }
                return ValueCodec.encode(.viewModel(instance))
            }
            return ValueCodec.encode(try runtime.value(at: path, in: target))
        } catch {
            throw WireError(error)
        }
    }

    /// The batches after the cursor, if the cursor is of this epoch and all of them are still
    /// in the history; nil when a fresh snapshot is needed instead.
    /// The replay must also fit in half the send queue (it is sent at once); a resume from
    /// further back gets a snapshot instead.
    private func missingBatches(_ record: TargetRecord, after cursor: Cursor, currentSeq: UInt64, epoch: String) -> [HistoryEntry]? {
        guard cursor.epoch == epoch, cursor.seq <= currentSeq else { return nil }
        if cursor.seq == currentSeq { return [] }
        guard let first = record.history.first, first.batch.seq <= cursor.seq + 1 else { return nil }
        let missing = record.history.filter { $0.batch.seq > cursor.seq }
        let budget = context.limits.withLock { $0.maxSendQueueBytes } / 2
        guard missing.reduce(0, { $0 + $1.payload.count }) <= budget else { return nil }
        return missing
    }

    /// A snapshot message: the whole target, or the values at `paths`.
    func snapshot(
        of target: String, paths: [String]?, values: [(String, JSONValue)], id: JSONValue?, reason: ServerMessage.SnapshotReason?, resumed: Bool?
    ) -> ServerMessage {
        let runtime = files[targets[target]!.file]!
        let seq: UInt64
        let content: ServerMessage.SnapshotContent
        if paths == nil, let snapshot = try? runtime.snapshot(of: target) {
            seq = snapshot.seq
            content = .target(bindings: snapshot.bindings, instances: snapshot.instances)
        } else {
            seq = (try? runtime.target(target).seq) ?? 0
            content = .values(values.map { ServerMessage.PathValue(path: $0.0, value: $0.1) })
        }
        return .snapshot(ServerMessage.Snapshot(target: target, epoch: epoch(of: target), seq: seq, content: content, reason: reason, resumed: resumed), id: id)
    }

    /// Checks lagging subscribers every 20 ms; once a session's queue has drained, it gets a
    /// catch-up snapshot per lagging subscription and its batches resume.
    func scheduleCatchUpCheck() {
        guard !catchUpCheckScheduled else { return }
        catchUpCheckScheduled = true
        queue.asyncAfter(deadline: .now() + .milliseconds(20)) { [self] in
            catchUpCheckScheduled = false
            let maxSendQueueBytes = context.limits.withLock { $0.maxSendQueueBytes }
            var stillLagging = false
            var out: [WebSocketServer.Command] = []
            for name in targets.keys.sorted() {
                for (session, subscription) in targets[name]!.subscribers where subscription.lagging {
                    guard Backlog.caughtUp(queuedBytes: context.queuedBytes(session), maxSendQueueBytes: maxSendQueueBytes) else {
                        stillLagging = true
                        continue
                    }
                    let runtime = files[targets[name]!.file]!
                    let values = (subscription.paths ?? []).compactMap { path in
                        (try? Self.subscriptionValue(at: path, in: name, runtime: runtime)).map { (path, $0) }
                    }
                    let message = snapshot(of: name, paths: subscription.paths, values: values, id: nil, reason: .catchUp, resumed: nil)
                    out.append(.send(ServerContext.payload(message), to: [session]))
                    targets[name]!.subscribers[session]!.lagging = false
                    context.metrics.catchUps.add(1, ordering: .relaxed)
                }
            }
            context.submit(out)
            if stillLagging { scheduleCatchUpCheck() }
        }
    }

    /// Forgets a closed session's subscriptions and pending acks (its commands still apply).
    func sessionClosed(_ session: SessionID) {
        for name in targets.keys {
            if targets[name]!.subscribers.removeValue(forKey: session) != nil {
                context.metrics.add(-1, to: .subscriptions, of: name)
            }
            targets[name]!.pending = targets[name]!.pending.filter { $0.value.session != session }
        }
    }
}
