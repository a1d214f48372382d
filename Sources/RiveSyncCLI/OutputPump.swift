import Foundation

/// Carries what asynchronous command code writes back to the synchronous command action,
/// which copies it to its console as it arrives (so `watch` prints line by line) and then
/// returns or throws the outcome. `@unchecked Sendable`: every stored `var` is touched only
/// while `condition` is locked.
final class OutputPump: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var chunks: [(toError: Bool, text: String)] = []
    private var outcome: Result<Void, CommandError>?
    private var hint: String?

    /// Adds `text` to the message of a timeout, if one ends the command (e.g. why an
    /// acknowledgement may never come).
    func setTimeoutHint(_ text: String) { condition.withLock { hint = text } }

    /// Ends the pump with a timeout whose message is `text` plus the hint, if any.
    func finishWithTimeout(_ text: String) {
        let hint = condition.withLock { self.hint }
        finish(.failure(.timeout(text + (hint.map { " (\($0))" } ?? ""))))
    }

    /// Queues text for standard output.
    func write(_ text: String) { append(false, text) }

    /// Queues text for standard error.
    func writeError(_ text: String) { append(true, text) }

    private func append(_ toError: Bool, _ text: String) {
        condition.withLock {
            chunks.append((toError, text))
            condition.signal()
        }
    }

    /// Ends the pump with the command's outcome.
    func finish(_ result: Result<Void, CommandError>) {
        condition.withLock {
            if outcome == nil { outcome = result }
            condition.signal()
        }
    }

    /// Copies queued text to `console` until the outcome is known, then returns or throws it.
    func drain(into console: inout any Console) throws(CommandError) {
        while true {
            let (batch, result) = condition.withLock { () -> ([(toError: Bool, text: String)], Result<Void, CommandError>?) in
                while chunks.isEmpty, outcome == nil { condition.wait() }
                defer { chunks = [] }
                return (chunks, chunks.isEmpty ? outcome : nil)
            }
            for chunk in batch {
                if chunk.toError { console.writeError(chunk.text) } else { console.write(chunk.text) }
            }
            if let result { return try result.get() }
        }
    }
}
