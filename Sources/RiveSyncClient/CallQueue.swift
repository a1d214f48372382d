import Foundation
internal import RiveSyncProtocol

/// The worker's command queue, as Rive's: calls that return at once (`setValue`, `fire`, list
/// edits, nested `value(of:)`) and the awaited `confirmed` calls are taken in call order, one
/// after another. Each job checks its call locally and sends its request; the queue goes on
/// without waiting for the reply, so many writes can be in flight. A failure of a call that
/// returned at once goes to `Worker.errors()`.
final class CallQueue: Sendable {
    /// Checks a call and sends its request; returns the reply to wait for (nil: nothing sent).
    typealias Submit = @Sendable () async throws -> Reply?

    private struct Job: Sendable {
        let ticket: Int
        let submit: Submit
        let outcome: @Sendable (Result<ServerMessage?, any Error>) -> Void
    }

    private struct State {
        var nextTicket = 1
        /// Tickets without an outcome yet, and whether each waits for a manual advance.
        var unfinished: [Int: Bool] = [:]
        var barriers: [(ticket: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// The oldest unfinished ticket a barrier waits for.
        var oldestAwaited: Int { unfinished.filter { !$0.value }.keys.min() ?? Int.max }
    }

    /// The ticket of the job the drainer runs (for `barrier(before:)` inside a job).
    @TaskLocal static var currentTicket: Int?

    private let state = Locked(State())
    private let jobs: AsyncStream<Job>.Continuation
    let errors = ErrorChannel()

    init() {
        let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
        self.jobs = jobs
        let state = state
        Task {
            for await job in stream {
                do {
                    guard let reply = try await Self.$currentTicket.withValue(job.ticket, operation: job.submit) else {
                        job.outcome(.success(nil))
                        Self.finish(job.ticket, in: state)
                        continue
                    }
                    if reply.awaitsAdvance { Self.finish(job.ticket, in: state, keeping: true) }
                    reply.whenDone { result in
                        job.outcome(result.map { $0 })
                        Self.finish(job.ticket, in: state)
                    }
                } catch {
                    job.outcome(.failure(error))
                    Self.finish(job.ticket, in: state)
                }
            }
        }
    }

    /// Ends the queue (the worker is gone); jobs already posted still run.
    func finish() {
        jobs.finish()
    }

    /// Queues a call that returns at once; its failure goes to the error stream as `call`.
    func post(_ call: @autoclosure @escaping @Sendable () -> String, _ submit: @escaping Submit) {
        let errors = errors
        enqueue(submit) { result in
            if case .failure(let error) = result { errors.report(QueuedCallError(call: call(), error: error)) }
        }
    }

    /// Queues a call and waits for its reply (nil when the job sent nothing).
    func run(_ submit: @escaping Submit) async throws -> ServerMessage? {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(submit) { continuation.resume(with: $0) }
        }
    }

    /// Returns once every call queued before it has its reply (or failed), so a read after a
    /// write sees the write, as in Rive. Commands to a manual state machine are not waited
    /// for: they apply at its next advance (reads are as of the last advance, as Rive's).
    /// Inside a job, `before` is the job's own ticket.
    func barrier(before ticket: Int? = nil) async {
        let last = ticket.map { $0 - 1 } ?? state.withLock { $0.nextTicket - 1 }
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                guard state.oldestAwaited <= last else { return true }
                state.barriers.append((last, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Whether every job before `ticket` has its outcome, so the replica shows their effects
    /// (always true outside a job). Checks against the replica are only sound then.
    func isSettled(before ticket: Int?) -> Bool {
        guard let ticket else { return true }
        return state.withLock { state in !state.unfinished.keys.contains { $0 < ticket } }
    }

    private func enqueue(_ submit: @escaping Submit, outcome: @escaping @Sendable (Result<ServerMessage?, any Error>) -> Void) {
        state.withLock { state in
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.unfinished[ticket] = false
            jobs.yield(Job(ticket: ticket, submit: submit, outcome: outcome))
        }
    }

    /// Marks a ticket done (or, `keeping` it, as one barriers do not wait for) and releases the
    /// barriers that no longer wait.
    private static func finish(_ ticket: Int, in state: Locked<State>, keeping: Bool = false) {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.unfinished[ticket] = keeping ? true : nil
            let oldest = state.oldestAwaited
            let ready = state.barriers.filter { $0.ticket < oldest }
            state.barriers.removeAll { $0.ticket < oldest }
            return ready.map(\.continuation)
        }
        for continuation in released { continuation.resume() }
    }
}

/// A call that returned at once and failed later, as `Worker.errors()` yields it.
public struct QueuedCallError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The call as written, e.g. `setValue(of: NumberProperty(path: "mood"), to: 5.0)`.
    public let call: String
    /// Why it failed: a `ViewModelInstanceError`, `StateMachineError` or `WorkerError`.
    public let error: any Error

    public var description: String { "\(call) failed: \(error)" }
    public var errorDescription: String? { description }
}

/// Hands queued-call failures to every open `Worker.errors()` stream; with none open they are
/// written to standard error (where Rive logs them), so no failure goes unseen.
final class ErrorChannel: Sendable {
    private let listeners = Locked([Int: AsyncStream<QueuedCallError>.Continuation]())
    private let nextID = Locked(0)

    func stream() -> AsyncStream<QueuedCallError> {
        let (stream, continuation) = AsyncStream.makeStream(of: QueuedCallError.self)
        let id = nextID.withLock { id in
            id += 1
            return id
        }
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.listeners.withLock { $0[id] = nil } }
        return stream
    }

    func report(_ error: QueuedCallError) {
        let open = listeners.withLock { Array($0.values) }
        guard !open.isEmpty else {
            FileHandle.standardError.write(Data("RiveSyncClient: \(error)\n".utf8))
            return
        }
        for listener in open { listener.yield(error) }
    }

    func finish() {
        for listener in listeners.withLock({ Array($0.values) }) { listener.finish() }
    }
}
