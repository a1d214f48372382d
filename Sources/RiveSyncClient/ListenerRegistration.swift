/// A stream's listener as its registration and its consumer race: whichever of "registered"
/// and "the consumer ended" comes second removes the listener, so a consumer that breaks out
/// or is cancelled before the registration finished leaves no listener behind.
final class ListenerRegistration: Sendable {
    private enum State {
        case registering
        case registered(target: String, id: Int)
        case ended
    }

    private let state = Locked(State.registering)
    private let session: Session

    init(session: Session) {
        self.session = session
        session.registrationsInFlight.withLock { $0 += 1 }
    }

    /// The registration failed (the stream ends with its error): there is no listener.
    func failed() {
        session.registrationsInFlight.withLock { $0 -= 1 }
    }

    /// The listener `id` on `target` now exists; removes it at once if the consumer has ended.
    func registered(_ id: Int, on target: String) async {
        defer { session.registrationsInFlight.withLock { $0 -= 1 } }
        let ended = state.withLock { state -> Bool in
            guard case .registering = state else { return true }
            state = .registered(target: target, id: id)
            return false
        }
        if ended { await session.removeListener(target, id) }
    }

    /// The consumer ended (or the stream finished): removes the listener if it exists.
    func ended() {
        let previous = state.withLock { state -> State in
            defer { state = .ended }
            return state
        }
        guard case .registered(let target, let id) = previous else { return }
        let session = session
        Task { await session.removeListener(target, id) }
    }
}
