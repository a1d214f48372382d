import XCTest

@testable import RiveSyncClient

extension ClientTestCase {
    /// Sends a command to a manual target and advances it by 0 s until the daemon acks it (the
    /// command may reach the daemon after an advance).
    nonisolated(nonsending) func applied(_ machine: StateMachine, _ command: @escaping @Sendable () async throws -> Receipt) async throws
        -> Receipt
    {
        let outcome = AppliedOutcome()
        let pending = Task { try await command() }
        Task { await outcome.set(await pending.result) }
        return try await within {
            while await outcome.result == nil {
                try await machine.advance()
                try await Task.sleep(for: .milliseconds(10))
            }
            return try await outcome.result!.get()
        }
    }
}

/// A command's result once it has one.
actor AppliedOutcome {
    private(set) var result: Result<Receipt, any Error>?

    func set(_ result: Result<Receipt, any Error>) { self.result = result }
}
