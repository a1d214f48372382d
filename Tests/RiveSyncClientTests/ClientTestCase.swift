import Foundation
import RiveSyncInProcess
import RiveSyncTestSupport
import XCTest

@testable import RiveSyncClient

/// A test against a daemon of its own. `startDemo` and `startDaemon` run it in this process
/// (`InProcessDaemon`, its clock following the wall clock) and `connect` opens client
/// connections onto it through `InProcessTransport`; a test that needs the real process or
/// its sockets sets `process` (a `rivesyncd`) instead and `connect` goes to its port. Teardown
/// closes the connections, stops the daemon (the in-process one's timers with its clock) and
/// prints a process's stderr if the test failed.
class ClientTestCase: XCTestCase {
    var daemon: InProcessDaemon!
    var process: DaemonProcess!
    private var clock: Task<Void, Never>?
    private var workers: [Worker] = []

    func startDemo() throws {
        try start(["--demo"])
    }

    func startDaemon(configuration json: String, files: [String: String] = [:]) throws {
        try start(["--config", try DaemonProcess.writeConfiguration(json, files: files)])
    }

    private func start(_ arguments: [String]) throws {
        daemon = try InProcessDaemon(arguments: arguments)
        clock = daemon.clock.followingWallTime()
    }

    /// A real `rivesyncd --demo`.
    func startDemoProcess() throws {
        process = try DaemonProcess(["--demo"])
    }

    nonisolated(nonsending) func connect() async throws -> Worker {
        let transport = daemon.map { InProcessTransport($0) }
        let worker = try await Worker(url: transport == nil ? process.url : "ws://in-process", clientName: name, transport: transport)
        workers.append(worker)
        return worker
    }

    override func tearDown() async throws {
        for worker in workers { await worker.close() }
        workers = []
        daemon?.drain()
        clock?.cancel()
        clock = nil
        daemon = nil
        process?.stop()
        if let run = testRun, run.totalFailureCount > 0, let process {
            print("rivesyncd stderr:\n\(process.stderr)")
        }
        process = nil
    }
}

/// Runs `body`, failing with `TimedOut` after `seconds` (a hang guard, not a timing check).
/// The timeout returns even when `body` ignores cancellation (awaiting another task's value,
/// a continuation), so a stream that never ends fails the test instead of hanging it.
func within<T: Sendable>(_ seconds: Double = 20, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let outcome = FirstOutcome(continuation)
        let work = Task {
            do { outcome.resume(.success(try await body())) } catch { outcome.resume(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: .seconds(seconds))  // cancelled or not, the deadline has come
            if outcome.resume(.failure(TimedOut(what: "a body under a hang guard", seconds: seconds))) { work.cancel() }
        }
    }
}

/// A continuation resumed by whichever of the body and the timeout finishes first.
private final class FirstOutcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = continuation }

    /// Resumes with `result` if nothing did yet; returns whether this call did.
    @discardableResult
    func resume(_ result: Result<T, any Error>) -> Bool {
        let pending = lock.withLock { () -> CheckedContinuation<T, any Error>? in
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(with: result)
        return pending != nil
    }
}

/// The first `count` elements of a stream (hang-guarded).
func first<Element: Sendable>(_ count: Int, of stream: AsyncThrowingStream<Element, any Error>) async throws -> [Element] {
    try await within {
        var result: [Element] = []
        for try await element in stream {
            result.append(element)
            if result.count == count { break }
        }
        return result
    }
}

/// Iterates a stream in the background so a test can wait for its first n elements, then
/// for more, without iterating the stream twice.
actor Collector<Element: Sendable> {
    private(set) var elements: [Element] = []
    private var failure: (any Error)?
    private var ended = false
    private var waiters: [(count: Int, continuation: CheckedContinuation<[Element], any Error>)] = []
    private var task: Task<Void, Never>?

    /// Starts iterating `stream`.
    static func start(_ stream: AsyncThrowingStream<Element, any Error>) async -> Collector {
        let collector = Collector()
        await collector.run(stream)
        return collector
    }

    private func run(_ stream: AsyncThrowingStream<Element, any Error>) {
        task = Task {
            do {
                for try await element in stream { append(element) }
                finish(nil)
            } catch {
                finish(error)
            }
        }
    }

    private func append(_ element: Element) {
        elements.append(element)
        let ready = waiters.filter { $0.count <= elements.count }
        waiters.removeAll { $0.count <= elements.count }
        for waiter in ready { waiter.continuation.resume(returning: elements) }
    }

    private func finish(_ error: (any Error)?) {
        ended = true
        failure = error
        for waiter in waiters {
            waiter.continuation.resume(throwing: error ?? TimedOut(what: "\(waiter.count) elements of a stream that ended"))
        }
        waiters = []
    }

    /// Waits (hang-guarded) until at least `count` elements arrived; returns all so far.
    func waitFor(_ count: Int) async throws -> [Element] {
        if elements.count >= count { return elements }
        if ended { throw failure ?? TimedOut(what: "\(count) elements of a stream that ended") }
        return try await withCheckedThrowingContinuation { waiters.append((count, $0)) }
    }

    /// Stops iterating (ends the stream for its producer).
    func cancel() { task?.cancel() }
}

extension Collector {
    /// `waitFor` with a hang guard.
    nonisolated func first(_ count: Int) async throws -> [Element] {
        try await within { try await self.waitFor(count) }
    }
}
