import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// A client's request that makes a target, waiting for its name's claim
    /// (`WorkerAction.claimTarget`): what to propose once the name is the request's.
    struct PendingClaim {
        var name: String
        var limit: Int
        var record: JournalRecord
        var file: String
        var waiter: RequestWaiter
    }

    /// Asks the shell to claim `name` for `file` (unique in the daemon, fewer than `maxTargets`
    /// targets); `record` is proposed for `waiter` once the answer (`targetClaimed`) grants it.
    func claim(_ name: String, file: String, thenPropose record: JournalRecord, for waiter: RequestWaiter) {
        lastClaim += 1
        let limit = environment.limits.maxTargets
        pendingClaims[lastClaim] = PendingClaim(name: name, limit: limit, record: record, file: file, waiter: waiter)
        outbox.append(.claimTarget(name, file: file, limit: limit, claim: lastClaim))
    }

    /// The shell's answer to a claim: the name is held until the record applies (or is given
    /// back when it does not), or the request gets `target_exists` / `limit_exceeded`.
    func targetClaimed(_ claim: UInt64, _ result: TargetClaim) {
        guard let pending = pendingClaims.removeValue(forKey: claim) else { return }
        let waiter = pending.waiter
        switch result {
        case .claimed:
            reservedTargets.insert(pending.name)
            propose(pending.record, file: pending.file, .request(waiter))
        case .taken:
            sendError(
                waiter.grants.visible(WireError(StateMachineError.targetExists(pending.name)), for: waiter.body), id: waiter.id,
                to: waiter.connection)
        case .full:
            sendError(waiter.grants.visible(.limit("maxTargets", pending.limit), for: waiter.body), id: waiter.id, to: waiter.connection)
        }
    }
}
