import Dispatch
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
        let due = max(now, record.lastAdvance &+ UInt64(1e9 / record.rate))
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: due)) { [self] in runAdvance(target) }
    }

    /// Applies a target's queue and sends the batches, acks and errors it produced.
    func runAdvance(_ target: String) {
        guard let record = targets[target] else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        targets[target]!.scheduled = false
        targets[target]!.lastAdvance = start
        guard journalAdvance(target, file: record.file) else { return }
        let batches: [ChangeBatch]
        do {
            batches = try files[record.file]!.advance(target)
        } catch {
            context.log(.error, "advance failed", [("target", target), ("error", "\(error)")])
            return
        }
        context.metrics.recordAdvance(nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
        publish(batches, advanced: target)
        snapshotIfDue(record.file)
    }

    /// Journals the commands an advance is about to apply. If that fails they are not
    /// applied: each gets `storage_failed`, and false is returned.
    private func journalAdvance(_ target: String, file: String) -> Bool {
        guard !replaying, journals[file] != nil, let queue = try? files[file]!.target(target).queue, !queue.isEmpty else { return true }
        do {
            try journal(file, .advance(target: target, commands: queue))
            return true
        } catch {
            let dropped = (try? files[file]!.discardQueue(of: target)) ?? []
            context.submit(abandon(dropped, on: target, pending: targets[target]!.pending) { _ in error })
            for command in dropped { targets[target]!.pending[command.id] = nil }
            return false
        }
    }

    /// Sends each batch to its subscribers (encoded once for whole-target subscribers),
    /// records it in the history, then acks or rejects the advanced target's commands — all
    /// in one transport submit, every batch of the advance before any ack, so a subscriber of
    /// any target sees the advance's batch before the ack.
    func publish(_ batches: [ChangeBatch], advanced: String) {
        var out: [WebSocketServer.Command] = []
        var replies: [WebSocketServer.Command] = []
        let limits = context.limits.withLock { $0 }
        let softLimit = limits.maxSendQueueBytes / 2
        // No session can be over the soft limit while the whole transport queue is under it.
        let anyBacklog = context.totalQueuedBytes() > softLimit
        for batch in batches {
            guard targets[batch.target] != nil else { continue }
            context.metrics.add(1, to: .batches, of: batch.target)
            let targetEpoch = epoch(of: batch.target)
            let full = ServerContext.payload(.batch(ServerMessage.Batch(batch, epoch: targetEpoch, effects: batch.effects)))
            targets[batch.target]!.history.append(HistoryEntry(batch: batch, payload: full))
            if targets[batch.target]!.history.count > limits.historyBatches {
                targets[batch.target]!.history.removeFirst(targets[batch.target]!.history.count - limits.historyBatches)
            }
            var wholeTarget: [SessionID] = []
            var byPaths: [[String]: [SessionID]] = [:]
            var lagging: [SessionID] = []
            for (session, subscription) in targets[batch.target]!.subscribers where !subscription.lagging {
                if anyBacklog, context.queuedBytes(session) > softLimit {
                    lagging.append(session)
                    continue
                }
                if let paths = subscription.paths {
                    byPaths[paths, default: []].append(session)
                } else {
                    wholeTarget.append(session)
                }
            }
            // Each distinct set of paths is filtered and encoded once, shared by its sessions.
            for (paths, sessions) in byPaths {
                let effects = PathFilter.effects(batch.effects, visibleTo: paths)
                guard !effects.isEmpty else { continue }
                let message = ServerMessage.batch(ServerMessage.Batch(batch, epoch: targetEpoch, effects: effects))
                out.append(.send(ServerContext.payload(message), to: sessions))
            }
            for session in lagging { targets[batch.target]!.subscribers[session]!.lagging = true }
            if !lagging.isEmpty { scheduleCatchUpCheck() }
            if !wholeTarget.isEmpty { out.append(.send(full, to: wholeTarget)) }
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
