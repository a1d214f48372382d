import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// Applies a committed record to `file`. Deterministic given the file's state and the
    /// record: no clock, no grants, no per-connection data (a record without a ticket — a
    /// restore, another node — applies exactly like one this worker proposed). A record that
    /// cannot apply throws and leaves the state as it was (the model checks before it mutates).
    /// `proposed`: the record of the target of an advance this worker proposed (its waiter's),
    /// which finds the record and its file without hashing their names while it holds.
    func apply(_ record: JournalRecord, file: String, proposed: TargetHandle? = nil) throws(WireError) -> Applied {
        // The file found once: applying a record adds or removes no file, so its handle holds.
        let known = proposed.flatMap { targets.contains($0) ? $0 : nil }
        guard let runtime = known.map({ targets[$0].runtime }) ?? files.handle(of: file) else { throw Self.unknownFile(file) }
        func model<T>(_ body: (inout FileRuntime) throws -> T) throws(WireError) -> T {
            do { return try body(&files[runtime]) } catch { throw WireError(error) }
        }
        switch record {
        case .createInstance(let source, let nested):
            return .instance(try model { try $0.createInstance(source, nested: nested) }, file: file)
        case .createStateMachine(let request, let nested):
            let resolved = try resolve(request)
            try claimCommitted(resolved.name, file: file)
            do {
                _ = try model {
                    try $0.createStateMachine(
                        named: resolved.name, artboard: resolved.artboard, stateMachine: resolved.machine, main: request.main,
                        globals: request.globals.map { ($0.name, $0.instance) }, bindDefaults: request.bindDefaults, nested: nested)
                }
            } catch {
                releaseClaimed(resolved.name)
                throw error
            }
            targets[resolved.name] = TargetRecord(
                file: file, runtime: runtime, manual: request.manual, rate: request.rate ?? settings.defaultRate,
                settled: files[runtime].isSettled(resolved.name))
            return .target(resolved.name)
        case .publish(let instance, let name):
            try claimCommitted(name, file: file)
            do { try model { try $0.publish(instance, as: name) } } catch {
                releaseClaimed(name)
                throw error
            }
            targets[name] = TargetRecord(file: file, runtime: runtime, manual: false, rate: settings.defaultRate, settled: true)
            return .target(name)
        case .deleteTarget(let target):
            guard targets[target]?.file == file else { throw WireError(StateMachineError.unknownTarget(target)) }
            return try applyDelete(target)
        case .advance(let target, let commands, let elapsed):
            guard let record = known ?? targets.handle(of: target), targets[record].runtime == runtime else {
                throw WireError(StateMachineError.unknownTarget(target))
            }
            assert(targets.name(of: record) == target && targets[record].file == file, "a proposal's record is another target's")
            // Queued and advanced with one lookup of the target in the model, which also says
            // what `publish` and `advanceApplied` would otherwise look it up again for.
            let result = try model { try $0.advance(target, queueing: commands, elapsed: elapsed) }
            let (settled, generation) = (result.settled, result.generation)
            // The batches handed over, not copied: `publish` moves each out in turn.
            publish((consume result).batches, advanced: target, at: record, runtime: runtime, generation: generation)
            return .advanced(AppliedAdvance(target: target, settled: settled, record: record))
        }
    }

    /// A state machine request's artboard, state machine and target name, resolved against the
    /// file's schema (a record of the first format may leave them out).
    func resolve(_ request: StateMachineRequest) throws(WireError) -> (artboard: String, machine: String, name: String) {
        let schema = try runtime(request.file).schema
        let artboard: ArtboardSchema
        do {
            artboard = try schema.artboard(named: request.artboard)
        } catch {
            throw WireError(error)
        }
        let machine = request.stateMachine ?? artboard.defaultStateMachine ?? artboard.stateMachines.first
        guard let machine, artboard.stateMachines.contains(machine) else {
            throw WireError(ArtboardError.invalidStateMachine(request.stateMachine ?? "artboard '\(artboard.name)' has no state machine"))
        }
        return (artboard.name, machine, request.name ?? machine)
    }

    /// Claims a target name for a committed record: already claimed in the directory when this
    /// worker proposed the record (`reservedTargets`); else free among this worker's names or
    /// `target_exists` — the directory follows (`targetNames(.claim)`).
    private func claimCommitted(_ name: String, file: String) throws(WireError) {
        if reservedTargets.remove(name) != nil {
            // Claimed in the directory already (`claimTarget`); this worker's names follow.
            _ = names.claimTarget(name, file: file)
            return
        }
        guard names.claimTarget(name, file: file) else { throw WireError(StateMachineError.targetExists(name)) }
        outbox.append(.targetNames(.claim(name, file: file)))
    }

    /// Gives back the name of a target whose record did not apply after all.
    private func releaseClaimed(_ name: String) {
        names.releaseTarget(name)
        outbox.append(.targetNames(.release(name)))
    }

    /// Answers whoever waited for a record.
    func answer(_ waiter: consuming Waiter, ticket: LogTicket, with result: Result<Applied, WireError>) {
        switch consume waiter {
        case .own(let reserved):
            ownOutcomes[ticket] = result
            if case .failure = result, let name = reserved, reservedTargets.remove(name) != nil {
                outbox.append(.targetNames(.release(name)))
            }
        case .advance(let target, let known, let commands, let manual):
            // Through the record's handle: an applied advance brings it (found by `apply`), and
            // the proposal's holds unless the target was deleted meanwhile.
            let record: TargetHandle?
            if case .success(.advanced(let advance)) = result {
                record = advance.record
            } else {
                record = targets.contains(known) ? known : targets.handle(of: target)
            }
            if let record { targets[record].advancesInFlight -= 1 }
            switch result {
            case .failure(let error):
                guard let pending = targets[target]?.pending else { break }
                abandon(commands, on: target, pending: pending) { _ in error }
                for command in commands { targets[target]!.pending[command.id] = nil }
            case .success:
                // Counted where they were queued: another node's advance applies without a waiter.
                waitingChange.commands -= commands.count
            }
            if let manual { sendAdvanced(target, to: manual) }
        case .request(let waiter):
            switch result {
            case .failure(let error):
                if let name = waiter.reserved, reservedTargets.remove(name) != nil { outbox.append(.targetNames(.release(name))) }
                sendError(waiter.grants.visible(error, for: waiter.body), id: waiter.id, to: waiter.connection)
            case .success(let applied):
                answer(waiter, applied)
            }
        }
    }

    private func answer(_ waiter: RequestWaiter, _ applied: Applied) {
        let id = waiter.id
        switch (waiter.reply, applied) {
        case (.instance(let publish?), .instance(let instance, let file)):
            var next = waiter
            next.reply = .published(instance)
            propose(.publish(instance: instance, name: publish), file: file, .request(next))
        case (.instance(nil), .instance(let instance, let file)):
            send(instanceReply(instance, file: file, id: id), to: waiter.connection)
        case (.published(let instance), .target(let name)):
            send(instanceReply(instance, file: targets[name]!.file, id: id), to: waiter.connection)
        case (.target, .target(let name)):
            guard let info = targetInfo(name) else {
                return sendError(.internalError("target '\(name)' vanished after its creation"), id: id, to: waiter.connection)
            }
            send(.target(info, id: id), to: waiter.connection)
        case (.targetDeleted, .deleted(let target, let freed)):
            send(.targetDeleted(target: target, freed: freed, id: id), to: waiter.connection)
        default:
            sendError(.internalError("record answered with \(applied)"), id: id, to: waiter.connection)
        }
    }

    /// Answers an `advance` request with the target's seq.
    func sendAdvanced(_ target: String, to manual: ManualAdvance) {
        // A target gone before the answer (deleted meanwhile) answers seq 0.
        let seq = (try? files[targets[target]?.file ?? ""]?.target(target).seq) ?? 0
        send(.advanced(target: target, seq: seq, settled: settled(target), id: manual.id), to: manual.connection)
    }

    private func instanceReply(_ instance: InstanceID, file: String, id: JSONValue?) -> ServerMessage {
        let state = files[file]!.store[instance]!
        return .instance(ServerMessage.CreatedInstance(instance: instance, viewModel: state.viewModel, name: state.name), id: id)
    }
}
