import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// Schedules an advance of an auto target: at once if it has been idle for a whole
    /// interval, else at the next interval boundary (so it advances at most `rate` times a
    /// second, and only when something is queued or its state machine is running).
    func scheduleAdvance(_ target: String) {
        guard let record = targets.handle(of: target) else { return }
        scheduleAdvance(target, at: record)
    }

    /// `scheduleAdvance` of the target whose record `record` finds; the timer carries it.
    func scheduleAdvance(_ target: String, at record: TargetHandle) {
        // The fields are read, not the record kept: a copy of it alive while it changes would
        // copy its fields (copy on write).
        let (manual, scheduled) = (targets[record].manual, targets[record].scheduled)
        guard !manual, !scheduled else { return }
        targets[record].scheduled = true
        let due = AdvancePacing.due(now: environment.now(), lastAdvance: targets[record].lastAdvance, rate: targets[record].rate)
        outbox.append(.schedule(.advance(target: target, record: record), at: due))
    }

    /// Proposes a target's queued commands as one advance, with the seconds its state machine
    /// runs; once the log commits it, `apply` runs the advance and sends the batches, acks and
    /// errors it produced. `elapsed`: a manual target's `advance` request's seconds; an auto
    /// target's are decided here (`autoElapsed`). `manual`: the `advance` request to answer.
    /// `record`: where the target's record was (the timer's), if known; found by name if it
    /// no longer holds.
    func runAdvance(_ target: String, record known: TargetHandle? = nil, elapsed: Double? = nil, manual: ManualAdvance? = nil) {
        // The record found once, by its handle if it still holds (a timer's outlives a deleted
        // target); its fields are read and changed in place, not the record kept (see
        // `scheduleAdvance`).
        let found = known.flatMap { targets.contains($0) ? $0 : nil } ?? targets.handle(of: target)
        guard let record = found else { return }
        assert(targets.name(of: record) == target, "a timer's record is another target's")
        let start = environment.now()
        targets[record].scheduled = false
        targets[record].lastAdvance = start
        let file = targets[record].file
        let seconds = elapsed ?? autoElapsed(target, at: record, now: start)
        // A settled state machine's time changes nothing: only commands make an advance then.
        // A running one advances on request, or on the tick of the worker that drives it.
        guard !targets[record].queued.isEmpty || (!isSettled(target, at: record) && (elapsed != nil || targets[record].drivesTime))
        else {
            if let manual { sendAdvanced(target, to: manual) }
            return
        }
        // Taken out of the record, not copied and emptied.
        var commands = QueuedCommands()
        swap(&commands, &targets[record].queued)
        targets[record].lastStep = start
        // Counted here, where the record is at hand (`propose` would find it by name again).
        targets[record].advancesInFlight += 1
        propose(
            .advance(target: target, commands: commands, elapsed: seconds), file: file,
            .advance(target: target, record: record, commands: commands, manual: manual))
    }

    /// An auto target's state machine time for an advance at `now`: the real time since its
    /// state machine last ran while it is running (not settled), at most
    /// `ClientRequest.maxElapsed`; 0 for a settled one (as a Rive view resumes a paused state
    /// machine from 0 when input wakes it). Decided once, by the proposing node, and recorded.
    /// `record`: the target's handle in `targets`.
    func autoElapsed(_ target: String, at record: TargetHandle, now: UInt64) -> Double {
        guard !targets[record].manual, let last = targets[record].lastStep, !isSettled(target, at: record)
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

    /// `settled` of the target whose record `record` finds in `targets`, as its record keeps
    /// it (`TargetRecord.settled`; debug builds check it against the model).
    func isSettled(_ target: String, at record: TargetHandle) -> Bool {
        let settled = targets[record].settled
        assert(settled == self.settled(target, file: targets[record].file), "target '\(target)': settled is stale")
        return settled
    }

    /// After an advance of `target` applied: who drives an auto target's time, and its next
    /// tick. The node whose advance applied last drives it (`own`: this worker proposed it; a
    /// single daemon owns every advance, a restore's too), so a cluster ticks each running
    /// state machine once, not once per node. A settled target schedules nothing: an idle,
    /// settled daemon has no timer.
    func advanceApplied(_ target: String, own: Bool) {
        guard let record = targets.handle(of: target) else { return }
        advanceApplied(target, at: record, settled: settled(target, file: targets[record].file), own: own)
    }

    /// `advanceApplied(_:own:)` of the target whose record `record` finds in `targets`, its
    /// state machine `settled` after the advance (both as applying it found them).
    func advanceApplied(_ target: String, at record: TargetHandle, settled: Bool, own: Bool) {
        // The record changed in place, not kept (see `scheduleAdvance`).
        targets[record].settled = settled
        guard !targets[record].manual else { return }
        let drives = own || !settings.sharesManualAdvances
        targets[record].drivesTime = drives
        if !own || targets[record].lastStep == nil { targets[record].lastStep = environment.now() }
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
    /// `advanced`: the advanced target's record (its name and handle in `targets`) and its
    /// file's handle in `files`, found once by `apply`.
    /// `generation`: the advanced target's (`AdvanceResult.generation`), for its epoch.
    func publish(
        _ batches: consuming [ChangeBatch], advanced: String, at advancedRecord: TargetHandle, runtime: FileHandle, generation: Int
    ) {
        // The answers wait for every batch's sends; an advance of one batch (the usual one)
        // answers straight after its sends, with no array of its own.
        var replies: [WorkerAction]? = batches.count > 1 ? [] : nil
        // No connection can be lagging while the whole transport queue is under the soft limit.
        let anyBacklog = Backlog.lags(queuedBytes: sendQueues.total, maxSendQueueBytes: settings.limits.maxSendQueueBytes)
        // Each batch moved out of the array in turn, in order. (Iterating the array, reading an
        // element through its subscript, or lending one where it lies in the array's buffer
        // each copied it: ~450 instructions and ~12 reference counts a batch.)
        batches.reverse()
        while let batch = batches.popLast() {
            let own = batch.target == advanced
            // The advanced target's record found by `apply`; another target's by name.
            guard let record = own ? advancedRecord : targets.handle(of: batch.target) else { continue }
            // The advanced target's generation came with its batches; another target of its
            // file is found in the runtime at hand.
            let targetEpoch: String
            if own {
                targetEpoch = epoch(generation: generation)
            } else if targets[record].runtime == runtime {
                targetEpoch = epoch(generation: files[runtime].generation(of: batch.target))
            } else {
                targetEpoch = epoch(of: batch.target, file: targets[record].file)
            }
            publish(batch, own: own, record: record, runtime: runtime, epoch: targetEpoch, anyBacklog: anyBacklog, replies: &replies)
        }
        if let replies { outbox += replies }
    }

    /// `publish` of one batch (`own`: of the advanced target) whose record `record` finds,
    /// its file's runtime `runtime`; the acks and errors it answers go to `replies`, or after
    /// its sends in the outbox if nil.
    private func publish(
        _ batch: borrowing ChangeBatch, own: Bool, record: TargetHandle, runtime: FileHandle, epoch targetEpoch: String,
        anyBacklog: Bool, replies: inout [WorkerAction]?
    ) {
        let limits = settings.limits
        let openings = openings(of: batch.target, epoch: targetEpoch, at: record)
        // Written straight from the batch (no `ServerMessage.Batch` made and destroyed).
        let full = Frame(
            written: ServerMessage.batchBytes(
                batch, openings: openings, effects: batch.effects, withAuthors: settings.recordsAuthors, headroom: settings.frameHeadroom))
        let kept = HistoryEntry(batch, frame: full) { instance in
            // An instance's view model never changes (a file gives no id twice): the one the
            // target's latest kept batch recorded is taken from there when that batch set the
            // same instance (the usual case), without a lookup, which copies the instance.
            targets[record].history.viewModel(lastSetOn: instance) ?? files[runtime].store.viewModel(of: instance)
        }
        targets[record].history.append(kept, limit: limits.historyBatches)
        // Kept in the record while no connection can lag; else each subscriber's queue is asked.
        let audience =
            anyBacklog
            ? targets[record].freshAudience {
                Backlog.lags(queuedBytes: sendQueues.queuedBytes($0), maxSendQueueBytes: limits.maxSendQueueBytes)
            }
            : targets[record].audience
        let plan = Fanout.plan(
            batch, openings: openings, withAuthors: settings.recordsAuthors, to: audience, headroom: settings.frameHeadroom)
        for (frame, connections) in plan.filtered { outbox.append(.send(frame, to: connections)) }
        if anyBacklog {
            for (_, connections) in plan.filtered { fannedOut.formUnion(connections) }
            fannedOut.formUnion(plan.wholeTarget)
        }
        for connection in plan.lagging { targets[record].subscribers[connection]!.lagging = true }
        if !plan.lagging.isEmpty { scheduleCatchUpCheck() }
        if !plan.wholeTarget.isEmpty { outbox.append(.send(full, to: plan.wholeTarget)) }
        for number in batch.applied {
            guard let waiting = targets[record].pending.removeValue(forKey: number) else { continue }
            let ack = ServerMessage.ackBytes(
                openings: openings, seq: batch.seq, command: number, commands: waiting.transaction?.commands, id: waiting.requestID,
                headroom: settings.frameHeadroom)
            queueAnswer(.send(Frame(written: ack), to: Recipients(waiting.connection)), into: &replies)
        }
        for rejected in batch.rejected {
            guard let waiting = targets[record].pending.removeValue(forKey: rejected.id) else { continue }
            var error = WireError(rejected.error)
            if let path = waiting.hiddenPath { error = error.withoutState(path: path) }
            error.details += [("seq", .number(Double(batch.seq))), ("command", .number(Double(rejected.id)))]
            count(.error(error.code))
            queueAnswer(.send(frame(.error(error, id: waiting.requestID)), to: Recipients(waiting.connection)), into: &replies)
        }
        for rejected in batch.rejectedTransactions {
            guard let waiting = targets[record].pending.removeValue(forKey: rejected.commands[0]) else { continue }
            let error = rejectionError(rejected, seq: batch.seq, waiting: waiting)
            count(.error(error.code))
            queueAnswer(.send(frame(.error(error, id: waiting.requestID)), to: Recipients(waiting.connection)), into: &replies)
        }
        if own {
            let rejected = batch.rejected.count + batch.rejectedTransactions.reduce(0) { $0 + $1.commands.count }
            count(.published(target: batch.target, record: record, applied: batch.applied.count, rejected: rejected))
        } else {
            count(.published(target: batch.target, record: record, applied: 0, rejected: 0))
        }
    }
}

extension WorkerCore {
    /// The bytes `target`'s batches and acks in `epoch` open with: the ones its record `record`
    /// keeps when they still hold (the usual case), else made and kept.
    fileprivate func openings(of target: String, epoch: String, at record: TargetHandle) -> ServerMessage.TargetOpenings {
        if let kept = targets[record].openings, kept.open(target, epoch: epoch) { return kept }
        let openings = ServerMessage.TargetOpenings(target: target, epoch: epoch)
        targets[record].openings = openings
        return openings
    }

    /// Keeps an ack or error of `publish` in `replies`, or puts it in the outbox if nil.
    fileprivate func queueAnswer(_ reply: consuming WorkerAction, into replies: inout [WorkerAction]?) {
        if replies != nil { replies!.append(reply) } else { outbox.append(reply) }
    }
}

/// An `advance` request waiting for its answer (the target's seq).
struct ManualAdvance {
    var connection: ConnectionID
    var id: JSONValue?
}
