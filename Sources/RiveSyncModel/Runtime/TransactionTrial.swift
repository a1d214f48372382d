/// A transaction being checked one command at a time (`FileRuntime.startTrial(on:)`): each
/// command is applied to the state as the ones before it left it, and everything is undone
/// at the end, so the caller can read the state between commands (a path the previous
/// command created, a value's type behind a new binding).
public struct TransactionTrial {
    let target: String
    var undo: ChangeUndo
}

extension FileRuntime {
    /// Starts checking a transaction on a target. End it with `endTrial`, which puts the
    /// state back as it was.
    public mutating func startTrial(on targetName: String) throws(StateMachineError) -> TransactionTrial {
        TransactionTrial(target: targetName, undo: ChangeUndo(target: try target(targetName)))
    }

    /// Applies one command of the transaction on trial: the error it would get if it applied
    /// now, after the earlier ones. A command that fails changes nothing of its own kept
    /// after the trial ends. `resolved`: where the command's path led when it was checked
    /// (in the trial's state), not resolved again while that state is unchanged.
    public mutating func attempt(
        _ command: Command, resolved: ResolvedProperty? = nil, in trial: inout TransactionTrial
    ) throws(PropertyError) {
        let changes = try plan(command, in: targets[trial.target]!, resolved: resolved)
        for change in changes {
            try apply(change, on: trial.target, path: command.path, undo: &trial.undo)
        }
    }

    /// Undoes everything the trial's commands changed.
    public mutating func endTrial(_ trial: TransactionTrial) {
        rollBack(trial.undo, on: trial.target)
    }
}
