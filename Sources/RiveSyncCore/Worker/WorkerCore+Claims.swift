import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// A record that makes a target, waiting for its name's claim (`WorkerAction.claimTarget`):
    /// proposed once the name is granted.
    struct PendingClaim {
        var name: String
        var limit: Int
        var record: JournalRecord
        var file: String
        var then: Claimant
    }

    /// Who waits for a claim: a client's request, or the daemon's own proposal (its ticket
    /// handed out already, for `outcome(of:)`).
    enum Claimant {
        case request(RequestWaiter)
        case own(LogTicket)
    }

    /// Asks the shell to claim `name` for `file` in the daemon's directory (unique in the
    /// daemon; refused once `limit` targets exist) and proposes `record` once the answer
    /// (`targetClaimed`) grants it.
    func claim(_ name: String, file: String, limit: Int, thenPropose record: JournalRecord, for claimant: Claimant) {
        lastClaim += 1
        pendingClaims[lastClaim] = PendingClaim(name: name, limit: limit, record: record, file: file, then: claimant)
        outbox.append(.claimTarget(name, file: file, limit: limit, claim: lastClaim))
    }

    /// The daemon's own target (configuration): its name claimed like a client's, never
    /// refused for `maxTargets`; returns the ticket of its outcome (`outcome(of:)`, once the
    /// shell has performed the actions).
    func claimOwn(_ name: String, file: String, thenPropose record: JournalRecord) -> LogTicket {
        let ticket = nextTicket()
        claim(name, file: file, limit: .max, thenPropose: record, for: .own(ticket))
        return ticket
    }

    /// The shell's answer to a claim: the name is held until the record applies (or is given
    /// back when it does not), or the request gets `target_exists` / `limit_exceeded`.
    func targetClaimed(_ claim: UInt64, _ result: TargetClaim) {
        guard let pending = pendingClaims.removeValue(forKey: claim) else { return }
        let error: WireError
        switch result {
        case .claimed:
            reservedTargets.insert(pending.name)
            switch pending.then {
            case .request(let waiter): propose(pending.record, file: pending.file, .request(waiter))
            case .own(let ticket): propose(pending.record, file: pending.file, .own(reserved: pending.name), ticket: ticket)
            }
            return
        case .taken: error = WireError(StateMachineError.targetExists(pending.name))
        case .full: error = .limit("maxTargets", pending.limit)
        }
        switch pending.then {
        case .request(let waiter): sendError(waiter.grants.visible(error, for: waiter.body), id: waiter.id, to: waiter.connection)
        case .own(let ticket):
            waiting.release(ticket)
            ownOutcomes[ticket] = .failure(error)
        }
    }
}
