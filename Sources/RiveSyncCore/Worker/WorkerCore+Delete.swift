import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// The epoch a target's cursors belong to: the daemon's, with the generation appended for
    /// a target whose name was used by deleted targets before (its seqs start again at 1).
    func epoch(of target: String) -> String {
        // An unknown target has no epoch of its own.
        guard let file = targets[target]?.file else { return settings.epoch }
        return epoch(of: target, file: file)
    }

    /// `epoch(of:)` of a target of `file`.
    func epoch(of target: String, file: String) -> String {
        epoch(generation: files[file]?.generation(of: target))
    }

    /// The epoch of a target of `generation` (nil: unknown to its file).
    func epoch(generation: Int?) -> String {
        guard let generation, generation > 0 else { return settings.epoch }
        return "\(settings.epoch)~\(generation)"
    }

    /// Applies a committed `deleteTarget`: the model frees what only it held; its subscribers
    /// get `unsubscribed` with reason `deleted`, commands waiting for it error
    /// `target_deleted`, and its name is free again for this file.
    func applyDelete(_ target: String) throws(WireError) -> Applied {
        let record = targets[target]!
        let removal: TargetRemoval
        do { removal = try files[record.file]!.removeTarget(target) } catch { throw WireError(error) }
        targets[target] = nil
        names.retireTarget(target, file: record.file)
        outbox.append(.targetNames(.retire(target, file: record.file)))
        let ended = ServerMessage.unsubscribed(target: target, reason: .deleted, id: nil)
        if !record.subscribers.isEmpty { outbox.append(.send(frame(ended), to: Recipients(record.subscribers.keys))) }
        count(.subscriptions(target: target, delta: -record.subscribers.count))
        let inFlight = waiting.waiters.flatMap { waiter -> [QueuedCommand] in
            guard case .advance(target, _, let commands, _) = waiter else { return [] }
            return Array(commands)
        }
        abandon(Array(record.queued) + inFlight + removal.dropped, on: target, pending: record.pending) { number in
            WireError(
                code: .targetDeleted, message: "target '\(target)' was deleted before this command applied",
                details: [("target", .string(target)), ("command", .number(Double(number)))])
        }
        if !replaying {
            logLine(.info, "target deleted", [("target", target), ("file", record.file), ("freed", "\(removal.freed.count)")])
        }
        return .deleted(target: target, freed: removal.freed)
    }
}
