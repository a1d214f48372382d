import Dispatch
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

extension Worker {
    /// Schedules an advance of an auto target: at once if it has been idle for a whole
    /// interval, else at the next interval boundary (so it advances at most `rate` times a
    /// second, and only when something is queued).
    func scheduleAdvance(_ target: String) {
        guard let record = targets[target], !record.manual, !record.scheduled else { return }
        targets[target]!.scheduled = true
        let now = DispatchTime.now().uptimeNanoseconds
        let due = AdvancePacing.due(now: now, lastAdvance: record.lastAdvance, rate: record.rate)
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: due)) { [self] in runAdvance(target) }
    }

    /// Proposes a target's queued commands as one advance; once the log commits it, `apply`
    /// runs the advance and sends the batches, acks and errors it produced. `manual`: the
    /// `advance` request to answer with the target's seq.
    func runAdvance(_ target: String, manual: (session: SessionID, id: JSONValue?)? = nil) {
        guard let record = targets[target] else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        targets[target]!.scheduled = false
        targets[target]!.lastAdvance = start
        let commands = record.queued
        guard !commands.isEmpty else {
            if let manual { sendAdvanced(target, to: manual) }
            return
        }
        targets[target]!.queued = []
        propose(.advance(target: target, commands: commands), file: record.file, .advance(target: target, commands: commands, manual: manual))
        context.metrics.recordAdvance(nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
    }

    /// Sends each batch to its subscribers (encoded once for whole-target subscribers),
    /// records it in the history, then acks or rejects the advanced target's commands — all
    /// in one transport submit, every batch of the advance before any ack, so a subscriber of
    /// any target sees the advance's batch before the ack.
    func publish(_ batches: [ChangeBatch], advanced: String) {
        var out: [WebSocketServer.Command] = []
        var replies: [WebSocketServer.Command] = []
        let limits = context.limits.withLock { $0 }
        // No session can be lagging while the whole transport queue is under the soft limit.
        let anyBacklog = Backlog.lags(queuedBytes: context.totalQueuedBytes(), maxSendQueueBytes: limits.maxSendQueueBytes)
        for batch in batches {
            guard targets[batch.target] != nil else { continue }
            context.metrics.add(1, to: .batches, of: batch.target)
            let targetEpoch = epoch(of: batch.target)
            let full = ServerContext.payload(.batch(ServerMessage.Batch(batch, epoch: targetEpoch, effects: batch.effects)))
            targets[batch.target]!.history.append(HistoryEntry(batch: batch, payload: full))
            if targets[batch.target]!.history.count > limits.historyBatches {
                targets[batch.target]!.history.removeFirst(targets[batch.target]!.history.count - limits.historyBatches)
            }
            let subscribers = targets[batch.target]!.subscribers.compactMap { session, subscription in
                subscription.lagging ? nil : Fanout.Subscriber(connection: ConnectionID(session), paths: subscription.paths)
            }
            let plan = Fanout.plan(
                batch, epoch: targetEpoch, to: subscribers, anyBacklog: anyBacklog, maxSendQueueBytes: limits.maxSendQueueBytes,
                queuedBytes: { context.queuedBytes($0.rawValue) })
            for (frame, connections) in plan.filtered {
                out.append(.send(Payload(bytes: frame.bytes, isText: true), to: connections.map(\.rawValue)))
            }
            for connection in plan.lagging { targets[batch.target]!.subscribers[connection.rawValue]!.lagging = true }
            if !plan.lagging.isEmpty { scheduleCatchUpCheck() }
            if !plan.wholeTarget.isEmpty { out.append(.send(full, to: plan.wholeTarget.map(\.rawValue))) }
            for number in batch.applied {
                guard let waiting = targets[batch.target]!.pending.removeValue(forKey: number) else { continue }
                let ack = ServerMessage.ack(ServerMessage.Ack(target: batch.target, seq: batch.seq, command: number), id: waiting.requestID)
                replies.append(.send(ServerContext.payload(ack), to: [waiting.session]))
            }
            for rejected in batch.rejected {
                guard let waiting = targets[batch.target]!.pending.removeValue(forKey: rejected.id) else { continue }
                var error = WireError(rejected.error)
                if let path = waiting.hiddenPath { error = error.withoutState(path: path) }
                error.details += [("seq", .number(Double(batch.seq))), ("command", .number(Double(rejected.id)))]
                context.metrics.recordError(code: error.code.rawValue)
                replies.append(.send(ServerContext.payload(.error(error, id: waiting.requestID)), to: [waiting.session]))
            }
            if batch.target == advanced {
                context.metrics.add(batch.applied.count, to: .commandsApplied, of: batch.target)
                context.metrics.add(batch.rejected.count, to: .commandsRejected, of: batch.target)
                context.metrics.commandsQueued.add(-(batch.applied.count + batch.rejected.count), ordering: .relaxed)
            }
        }
        context.submit(out + replies)
    }
}
