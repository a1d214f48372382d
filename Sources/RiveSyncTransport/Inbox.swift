import CWebSockets
import Synchronization

/// Commands from any thread to the service thread, plus the wakeup.
///
/// The `alive` flag and the context pointer live under the same lock as the commands:
/// `lws_cancel_service` is called only while holding it with `alive == true`, and the service
/// thread clears `alive` under the lock before it destroys the context (LWS.md §3.7). The
/// context pointer is used for nothing else off the service thread.
final class Inbox<Command: Sendable>: Sendable {
    private struct State {
        var commands: [Command] = []
        var context: OpaquePointer?
    }

    private let state = Locked(State())
    /// Whether commands wait (set and cleared under the lock; read without it by the service
    /// thread, `hasCommands`).
    private let waiting = Atomic<Bool>(false)
    /// Whether the loop runs (between `open` and `close`).
    private let running = Atomic<Bool>(false)

    /// Starts accepting commands for `context` (service thread, after context creation).
    func open(context: OpaquePointer) {
        state.withLock { $0.context = context }
        running.store(true, ordering: .releasing)
    }

    /// Whether commands wait to be drained: a cheap look before taking the lock (a submit
    /// that happened before the call is seen).
    var hasCommands: Bool { waiting.load(ordering: .acquiring) }

    /// Whether the loop takes commands (opened and not closed).
    var isOpen: Bool { running.load(ordering: .acquiring) }

    /// Appends commands in order with one lock and at most one wakeup.
    /// Returns false (and drops them) when the loop is not running.
    @discardableResult
    func submit(_ commands: some Collection<Command>) -> Bool {
        guard !commands.isEmpty else { return true }
        return state.withLock { state in
            guard let context = state.context else { return false }
            let wasEmpty = state.commands.isEmpty
            state.commands.append(contentsOf: commands)
            waiting.store(true, ordering: .releasing)
            if wasEmpty { lws_cancel_service(context) }
            return true
        }
    }

    /// Takes every pending command (service thread, on `EVENT_WAIT_CANCELLED`).
    func drain() -> [Command] {
        var taken: [Command] = []
        drain(into: &taken)
        return taken
    }

    /// Swaps the pending commands into `taken`, which must be empty, so the two arrays'
    /// storage is reused drain after drain instead of allocated for each one.
    func drain(into taken: inout [Command]) {
        precondition(taken.isEmpty, "drain(into:) needs an empty array")
        state.withLock { state in
            swap(&state.commands, &taken)
            waiting.store(false, ordering: .relaxed)
        }
    }

    /// Stops accepting commands (service thread, before `lws_context_destroy`); returns the
    /// ones never drained.
    @discardableResult
    func close() -> [Command] {
        running.store(false, ordering: .releasing)
        return state.withLock { state in
            state.context = nil
            defer { state.commands = [] }
            waiting.store(false, ordering: .relaxed)
            return state.commands
        }
    }
}
