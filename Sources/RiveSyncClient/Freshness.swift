/// Whether the daemon's state may be behind (a cluster node that cannot read the cluster's
/// log tells its clients, PROTOCOL.md §7.1), and every open `Worker.freshness()` stream.
final class FreshnessChannel: Sendable {
    private struct State {
        var fresh = true
        var listeners: [Int: AsyncStream<Bool>.Continuation] = [:]
        var nextID = 0
    }
    private let state = Locked(State())

    var isFresh: Bool { state.withLock { $0.fresh } }

    /// A stream that yields the current value, then every change.
    func stream() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
        let id = state.withLock { state in
            state.nextID += 1
            state.listeners[state.nextID] = continuation
            continuation.yield(state.fresh)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) } }
        return stream
    }

    /// The daemon said so (`freshness`), or a new connection began (fresh until told otherwise).
    func update(_ fresh: Bool) {
        let listeners = state.withLock { state -> [AsyncStream<Bool>.Continuation] in
            guard state.fresh != fresh else { return [] }
            state.fresh = fresh
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(fresh) }
    }

    func finish() {
        for listener in state.withLock({ Array($0.listeners.values) }) { listener.finish() }
    }
}
