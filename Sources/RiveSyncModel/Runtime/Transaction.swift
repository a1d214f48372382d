/// Why a transaction was refused: the first of its commands that failed, by its index in the
/// transaction, and that command's error. Nothing of the transaction was applied.
public struct TransactionError: Error, Sendable, Hashable {
    /// 0-based index of the failing command in the transaction.
    public var index: Int
    public var error: PropertyError

    public init(index: Int, error: PropertyError) {
        self.index = index
        self.error = error
    }
}

/// A transaction an advance could not apply: every change its commands made was undone, and
/// none of its effects is in any batch.
public struct RejectedTransaction: Sendable, Hashable {
    /// Ids of all its commands, in order.
    public var commands: [UInt64]
    public var failure: TransactionError

    public init(commands: [UInt64], failure: TransactionError) {
        self.commands = commands
        self.failure = failure
    }

    /// The id of the command that failed.
    public var failingCommand: UInt64 { commands[failure.index] }
}

extension FileRuntime {
    /// Queues several commands that apply on the target's next advance in their order, with
    /// nothing between them, all or none. Each is checked first against the state as the ones
    /// before it leave it (applied and undone at once, so a `listAppend` then a `listRemoveAt`
    /// of the new last index is valid); the first that fails refuses the whole transaction and
    /// nothing is queued.
    ///
    /// - Throws: `StateMachineError.unknownTarget`; `TransactionError` with the failing index.
    public mutating func enqueue(transaction commands: [QueuedCommand], on targetName: String) throws {
        guard targets[targetName] != nil else { throw StateMachineError.unknownTarget(targetName) }
        guard let first = commands.first?.id else { return }
        var undo = ChangeUndo(target: targets[targetName]!)
        let failure = trial(commands, on: targetName, undo: &undo)
        rollBack(undo, on: targetName)
        if let failure { throw failure }
        for var command in commands {
            command.transaction = first
            targets[targetName]!.queue.append(command)
        }
    }

    /// Applies a transaction's commands in order, recording what they change in `undo`, until
    /// one fails. Returns that failure, or nil when all applied. The caller rolls back.
    private mutating func trial(_ commands: [QueuedCommand], on targetName: String, undo: inout ChangeUndo) -> TransactionError? {
        for (index, queued) in commands.enumerated() {
            do {
                let changes = try plan(queued.command, in: targets[targetName]!, resolved: queued.resolved)
                for change in changes {
                    try apply(change, on: targetName, path: queued.command.path, undo: &undo)
                }
            } catch {
                return TransactionError(index: index, error: error)
            }
        }
        return nil
    }

    /// Puts back what `undo` recorded: the instances as they were before their first change,
    /// and the target's bindings (with the root index).
    mutating func rollBack(_ undo: ChangeUndo, on targetName: String) {
        for state in undo.instances.values { store.upsert(state) }
        guard let bindings = undo.bindings, targets[targetName]!.bindings != bindings else { return }
        unindexRoots(of: targets[targetName]!)
        store.bindingsChanged()
        targets[targetName]!.bindings = bindings
        indexRoots(of: targets[targetName]!)
    }
}

/// What the changes of a transaction replaced, to be put back if it fails: each touched
/// instance's state before its first change, and the target's bindings before.
struct ChangeUndo {
    /// Whether changes are recorded (a command of its own needs no undo).
    let recording: Bool
    var instances: [InstanceID: InstanceState] = [:]
    var bindings: [Binding]?

    /// Records nothing.
    static let off = ChangeUndo(recording: false)

    private init(recording: Bool) { self.recording = recording }

    /// Records changes made on `target`.
    init(target: Target) {
        recording = true
        bindings = target.bindings
    }

    /// Keeps an instance's state before its first change.
    mutating func keep(_ id: InstanceID, from store: InstanceStore) {
        guard recording, instances[id] == nil, let state = store[id] else { return }
        instances[id] = state
    }
}
