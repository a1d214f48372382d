import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// Schedules an advance of an auto target: at once if it has been idle for a whole
    /// interval, else at the next interval boundary (so it advances at most `rate` times a
    /// second, and only when something is queued or its state machine is running).
    func scheduleAdvance(_ target: String) {
        guard let index = targets.index(forKey: target) else { return }
        scheduleAdvance(target, at: index)
    }

    /// `scheduleAdvance` of the target whose record is at `index` in `targets`.
    func scheduleAdvance(_ target: String, at index: [String: TargetRecord].Index) {
        // The fields are read, not the record kept: a copy of it alive while it changes would
        // copy its fields (copy on write).
        let (manual, scheduled) = (targets.values[index].manual, targets.values[index].scheduled)
        guard !manual, !scheduled else { return }
        targets.values[index].scheduled = true
        let due = AdvancePacing.due(
            now: environment.now(), lastAdvance: targets.values[index].lastAdvance, rate: targets.values[index].rate)
        outbox.append(.schedule(.advance(target: target), at: due))
    }

    /// Proposes a target's queued commands as one advance, with the seconds its state machine
    /// runs; once the log commits it, `apply` runs the advance and sends the batches, acks and
    /// errors it produced. `elapsed`: a manual target's `advance` request's seconds; an auto
    /// target's are decided here (`autoElapsed`). `manual`: the `advance` request to answer.
    func runAdvance(_ target: String, elapsed: Double? = nil, manual: ManualAdvance? = nil) {
        // The record found once (nothing here adds or removes one, so its index holds); its
        // fields are read and changed in place, not the record kept (see `scheduleAdvance`).
        guard let record = targets.index(forKey: target) else { return }
        let start = environment.now()
        targets.values[record].scheduled = false
        targets.values[record].lastAdvance = start
        let commands = targets.values[record].queued
        let file = targets.values[record].file
        let seconds = elapsed ?? autoElapsed(target, at: record, now: start)
        // A settled state machine's time changes nothing: only commands make an advance then.
        // A running one advances on request, or on the tick of the worker that drives it.
        guard !commands.isEmpty || (!isSettled(target, at: record) && (elapsed != nil || targets.values[record].drivesTime)) else {
            if let manual { sendAdvanced(target, to: manual) }
            return
        }
        targets.values[record].queued = []
        targets.values[record].lastStep = start
        // Counted here, where the record is at hand (`propose` would find it by name again).
        targets.values[record].advancesInFlight += 1
        propose(
            .advance(target: target, commands: commands, elapsed: seconds), file: file,
            .advance(target: target, commands: commands, manual: manual))
    }

    /// An auto target's state machine time for an advance at `now`: the real time since its
    /// state machine last ran while it is running (not settled), at most
    /// `ClientRequest.maxElapsed`; 0 for a settled one (as a Rive view resumes a paused state
    /// machine from 0 when input wakes it). Decided once, by the proposing node, and recorded.
    /// `record`: the target's index in `targets`.
    func autoElapsed(_ target: String, at record: [String: TargetRecord].Index, now: UInt64) -> Double {
        guard !targets.values[record].manual, let last = targets.values[record].lastStep, !isSettled(target, at: record)
        else { return 0 }
        return min(Double(now &- last) / 1e9, ClientRequest.maxElapsed)
    }

    /// Whether a target's state machine needs no further advance.
    func settled(_ target: String) -> Bool {
        guard let file = targets[target]?.file else { return true }
        return settled(target, file: file)
    }

    /// `settled` of a target of `file`.
    func settled(_ target: String, file: String) -> Bool {
        files[file]?.isSettled(target) ?? true
    }

    /// `settled` of the target whose record is at `record` in `targets`, as its record keeps
    /// it (`TargetRecord.settled`; debug builds check it against the model).
    func isSettled(_ target: String, at record: [String: TargetRecord].Index) -> Bool {
        let settled = targets.values[record].settled
        assert(settled == self.settled(target, file: targets.values[record].file), "target '\(target)': settled is stale")
        return settled
    }

    /// After an advance of `target` applied: who drives an auto target's time, and its next
    /// tick. The node whose advance applied last drives it (`own`: this worker proposed it; a
    /// single daemon owns every advance, a restore's too), so a cluster ticks each running
    /// state machine once, not once per node. A settled target schedules nothing: an idle,
    /// settled daemon has no timer.
    func advanceApplied(_ target: String, own: Bool) {
        guard let record = targets.index(forKey: target) else { return }
        advanceApplied(target, at: record, settled: settled(target, file: targets.values[record].file), own: own)
    }

    /// `advanceApplied(_:own:)` of the target whose record is at `record` in `targets`, its
    /// state machine `settled` after the advance (both as applying it found them).
    func advanceApplied(_ target: String, at record: [String: TargetRecord].Index, settled: Bool, own: Bool) {
        // The record changed in place, not kept (see `scheduleAdvance`).
        targets.values[record].settled = settled
        guard !targets.values[record].manual else { return }
        let drives = own || !settings.sharesManualAdvances
        targets.values[record].drivesTime = drives
        if !own || targets.values[record].lastStep == nil { targets.values[record].lastStep = environment.now() }
        if drives, !replaying, !settled { scheduleAdvance(target, at: record) }
    }

    /// After a restore: every running auto target ticks again (on a single daemon; a cluster
    /// node drives only the targets whose advances it proposes from then on).
    func resumeTicking(file: String) {
        guard !settings.sharesManualAdvances else { return }
        for name in targets.keys.sorted() where targets[name]!.file == file && targets[name]!.drivesTime {
            targets[name]!.lastStep = environment.now()
            if !targets[name]!.manual, !settled(name) { scheduleAdvance(name) }
        }
    }

    /// Sends each batch to its subscribers (encoded once for whole-target subscribers),
    /// records it in the history, then acks or rejects the advanced target's commands —
    /// every batch of the advance before any ack, so a subscriber of any target sees the
    /// advance's batch before the ack.
    /// `advanced`: the advanced target's record (its name and its index in `targets`) and its
    /// file's index in `files`, found once by `apply`; nothing here adds or removes a record or
    /// a file, so both hold.
    /// `generation`: the advanced target's (`AdvanceResult.generation`), for its epoch.
    func publish(
        _ batches: [ChangeBatch], advanced: String, at advancedRecord: [String: TargetRecord].Index,
        runtime: [String: FileRuntime].Index, generation: Int
    ) {
        var replies: [WorkerAction] = []
        let limits = settings.limits
        // No connection can be lagging while the whole transport queue is under the soft limit.
        let anyBacklog = Backlog.lags(queuedBytes: sendQueues.total, maxSendQueueBytes: limits.maxSendQueueBytes)
        for batch in batches {
            // The record found once (the advanced target's by `apply`): nothing below adds or
            // removes a record, so its index holds.
            let own = batch.target == advanced
            guard let record = own ? advancedRecord : targets.index(forKey: batch.target) else { continue }
            // The advanced target's generation came with its batches; another target of its
            // file is found in the runtime at hand.
            let targetEpoch: String
            if own {
                targetEpoch = epoch(generation: generation)
            } else {
                let file = targets.values[record].file
                targetEpoch =
                    file == files.keys[runtime]
                    ? epoch(generation: files.values[runtime].generation(of: batch.target)) : epoch(of: batch.target, file: file)
            }
            let full = frame(
                .batch(ServerMessage.Batch(batch, epoch: targetEpoch, effects: batch.effects, withAuthors: settings.recordsAuthors)))
            targets.values[record].history.append(
                HistoryEntry(batch, frame: full) { files.values[runtime].store[$0]?.viewModel }, limit: limits.historyBatches)
            var subscribers: [Fanout.Subscriber] = []
            subscribers.reserveCapacity(targets.values[record].subscribers.count)
            for (connection, subscription) in targets.values[record].subscribers where !subscription.lagging {
                subscribers.append(Fanout.Subscriber(connection: connection, paths: subscription.paths))
            }
            let plan = Fanout.plan(
                batch, epoch: targetEpoch, withAuthors: settings.recordsAuthors, to: subscribers, anyBacklog: anyBacklog,
                maxSendQueueBytes: limits.maxSendQueueBytes, headroom: settings.frameHeadroom, queuedBytes: sendQueues.queuedBytes)
            for (frame, connections) in plan.filtered { outbox.append(.send(frame, to: connections)) }
            if anyBacklog {
                for (_, connections) in plan.filtered { fannedOut.formUnion(connections) }
                fannedOut.formUnion(plan.wholeTarget)
            }
            for connection in plan.lagging { targets.values[record].subscribers[connection]!.lagging = true }
            if !plan.lagging.isEmpty { scheduleCatchUpCheck() }
            if !plan.wholeTarget.isEmpty { outbox.append(.send(full, to: plan.wholeTarget)) }
            for number in batch.applied {
                guard let waiting = targets.values[record].pending.removeValue(forKey: number) else { continue }
                let ack = ServerMessage.ack(
                    ServerMessage.Ack(target: batch.target, seq: batch.seq, command: number, commands: waiting.transaction?.commands),
                    id: waiting.requestID)
                replies.append(.send(frame(ack), to: Recipients(waiting.connection)))
            }
            for rejected in batch.rejected {
                guard let waiting = targets.values[record].pending.removeValue(forKey: rejected.id) else { continue }
                var error = WireError(rejected.error)
                if let path = waiting.hiddenPath { error = error.withoutState(path: path) }
                error.details += [("seq", .number(Double(batch.seq))), ("command", .number(Double(rejected.id)))]
                count(.error(error.code))
                replies.append(
                    .send(frame(.error(error, id: waiting.requestID)), to: Recipients(waiting.connection)))
            }
            for rejected in batch.rejectedTransactions {
                guard let waiting = targets.values[record].pending.removeValue(forKey: rejected.commands[0]) else { continue }
                let error = rejectionError(rejected, seq: batch.seq, waiting: waiting)
                count(.error(error.code))
                replies.append(
                    .send(frame(.error(error, id: waiting.requestID)), to: Recipients(waiting.connection)))
            }
            if own {
                let rejected = batch.rejected.count + batch.rejectedTransactions.reduce(0) { $0 + $1.commands.count }
                count(.published(target: batch.target, applied: batch.applied.count, rejected: rejected))
            } else {
                count(.published(target: batch.target, applied: 0, rejected: 0))
            }
        }
        outbox += replies
    }
}

/// An `advance` request waiting for its answer (the target's seq).
struct ManualAdvance {
    var connection: ConnectionID
    var id: JSONValue?
}
