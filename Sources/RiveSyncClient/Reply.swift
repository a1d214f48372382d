internal import RiveSyncProtocol

/// The daemon's reply to a request that was sent, awaited later: how queued calls keep many
/// requests in flight while the queue goes on.
final class Reply: Sendable {
    /// True for a command to a manual state machine: acknowledged only by its next advance,
    /// so the call queue's barriers do not wait for it (reads show the state as of the last
    /// advance, as Rive's do).
    let awaitsAdvance: Bool

    init(awaitsAdvance: Bool = false) {
        self.awaitsAdvance = awaitsAdvance
    }

    private enum State {
        case waiting([@Sendable (Result<ServerMessage, any Error>) -> Void])
        case done(Result<ServerMessage, any Error>)
    }

    private let state = Locked(State.waiting([]))

    /// Settles the reply (once; later calls are ignored) and tells whoever waits.
    func complete(_ result: Result<ServerMessage, any Error>) {
        let waiting = state.withLock { state -> [@Sendable (Result<ServerMessage, any Error>) -> Void] in
            guard case .waiting(let callbacks) = state else { return [] }
            state = .done(result)
            return callbacks
        }
        for callback in waiting { callback(result) }
    }

    /// Calls `callback` with the outcome, at once if it is known.
    func whenDone(_ callback: @escaping @Sendable (Result<ServerMessage, any Error>) -> Void) {
        let known = state.withLock { state -> Result<ServerMessage, any Error>? in
            switch state {
            case .waiting(let callbacks):
                state = .waiting(callbacks + [callback])
                return nil
            case .done(let result):
                return result
            }
        }
        if let known { callback(known) }
    }

    /// The reply, or the typed error.
    var value: ServerMessage {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in whenDone { continuation.resume(with: $0) } }
        }
    }
}
