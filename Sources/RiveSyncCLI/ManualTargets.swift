import RiveSyncClient

/// Commands on manual targets, which the daemon acknowledges only after an `advance`.
enum ManualTargets {
    /// The `--advance` flag of `set`, `fire`, `list` and `bind`.
    static let option = CommandSpec.Option("advance", help: "on a manual target, advance it so the change applies now")

    /// Runs `command` on `target`. On a manual target it either advances the target until the
    /// command is acknowledged (`advance`), or leaves a hint for the timeout that will come
    /// unless another client advances it.
    static func apply<Acknowledgement: Sendable>(
        _ target: RemoteTarget, advance: Bool, output: Output, _ command: @escaping @Sendable () async throws -> Acknowledgement
    ) async throws -> Acknowledgement {
        guard try await target.info().mode == "manual" else { return try await command() }
        guard advance else {
            output.timeoutHint(
                "'\(target.name)' is a manual target: its commands apply on 'rivesync advance \(target.name)', or use --advance")
            return try await command()
        }
        let machine = try await target.worker.stateMachine(named: target.name)
        let pending = Task { try await command() }
        return try await withTaskCancellationHandler {
            try await advanceUntilApplied(machine, pending)
        } onCancel: {
            pending.cancel()
        }
    }

    /// Advances `machine` until `pending` (a command sent to it) is acknowledged or fails. The
    /// command may reach the daemon after an advance, so one advance may not be enough.
    static func advanceUntilApplied<T: Sendable>(_ machine: StateMachine, _ pending: Task<T, any Error>) async throws -> T {
        let done = Flag()
        let watcher = Task {
            let result = await pending.result
            await done.set()
            return try result.get()
        }
        while await !done.value {
            try await machine.advance()
            try await Task.sleep(for: .milliseconds(5))
        }
        return try await watcher.value
    }
}

/// A boolean shared between tasks.
actor Flag {
    private(set) var value = false

    func set() { value = true }
}
