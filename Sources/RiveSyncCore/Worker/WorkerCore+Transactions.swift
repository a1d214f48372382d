import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// Checks a transaction's commands in order, each in the state the ones before it leave
    /// (PROTOCOL.md §16), then queues them as one unit with consecutive numbers; the ack (or
    /// the failing command's error) comes after the advance that applies them. The first
    /// command that fails refuses the whole transaction with its error and
    /// `details.commandIndex`; nothing is queued and no number is used.
    ///
    /// The model's own checks (paths, list indexes, bindings) are final only while nothing
    /// waits to apply before the transaction, as for a single command; otherwise they are
    /// made again when it applies, and a failure then undoes the whole transaction.
    func enqueueTransaction(
        _ transaction: TransactionRequest, session: ConnectionID, requestID: JSONValue?, grants: any RequestGrants, author: Author?
    ) throws(WireError) {
        let target = transaction.target
        let file = try record(target).file
        let final = checksAgainstAppliedState(target)
        var trial: TransactionTrial
        do { trial = try files[file]!.startTrial(on: target) } catch { throw WireError(error) }
        var commands: [Command] = []
        var resolutions: [ResolvedProperty?] = []
        var hiddenPaths: [String?] = []
        var failure: WireError?
        for (index, body) in transaction.commands.enumerated() {
            do throws(WireError) {
                let (_, command, resolved, _, _) = try self.command(for: body, grants: grants)
                do { try files[file]!.attempt(command, resolved: resolved, in: &trial) } catch { if final { throw WireError(error) } }
                commands.append(command)
                resolutions.append(resolved)
                hiddenPaths.append(body.commandLocation.flatMap { grants.may(.read, on: $0.target, at: $0.path) ? nil : $0.path.text })
            } catch {
                failure = grants.visible(error, for: body).inCommand(index)
                break
            }
        }
        files[file]!.endTrial(trial)
        if let failure { throw failure }
        let numbers = numbering.next(count: commands.count)
        let who = recorded(author)
        for (index, number) in numbers.enumerated() {
            // Each resolution was taken in the trial's state: applying keeps only those that
            // still hold (`QueuedCommand.resolved`).
            targets[target]!.queued.append(
                QueuedCommand(id: number, command: commands[index], author: who, transaction: numbers[0], resolved: resolutions[index]))
        }
        targets[target]!.pending[numbers[0]] = PendingAck(
            connection: session, requestID: requestID, hiddenPath: nil,
            transaction: PendingTransaction(commands: numbers, hiddenPaths: hiddenPaths))
        waitingChange.commands += numbers.count
        scheduleAdvance(target)
    }

    /// The reply to a transaction an advance rejected: its failing command's error with
    /// `commandIndex`, the batch's `seq` and the command's number.
    func rejectionError(_ rejected: RejectedTransaction, seq: UInt64, waiting: PendingAck) -> WireError {
        var error = WireError(rejected.failure.error)
        if let hidden = waiting.transaction?.hiddenPaths[rejected.failure.index] { error = error.withoutState(path: hidden) }
        error.details += [
            ("commandIndex", .number(Double(rejected.failure.index))), ("seq", .number(Double(seq))),
            ("command", .number(Double(rejected.failingCommand))),
        ]
        return error
    }
}
