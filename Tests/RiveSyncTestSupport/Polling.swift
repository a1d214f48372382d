import Foundation

/// What a test waited for did not come before its deadline. The deadline is a hang guard
/// (generous, for loaded machines), never a timing check.
public struct TimedOut: Error, CustomStringConvertible {
    /// What was awaited, said when the wait gave up (so it can include the state then).
    public let what: String
    /// The deadline, when it was a time (not a number of tries).
    public let seconds: Double?

    public init(what: String, seconds: Double? = nil) {
        self.what = what
        self.seconds = seconds
    }

    public var description: String { "timed out\(seconds.map { " after \($0) s" } ?? "") waiting for \(what)" }
}

/// The deadline of every wait in the tests unless a caller needs a longer one.
public let defaultWaitSeconds = 30.0

/// Polls `condition` every 5 ms until it returns a value, and returns it; throws `TimedOut`
/// naming `what` after `seconds`. The condition runs on the caller's actor.
public func waitFor<T>(
    _ what: @autoclosure () -> String, seconds: Double = defaultWaitSeconds, isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> T?
) async throws -> T {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while true {
        if let value = try await condition() { return value }
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what(), seconds: seconds) }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Polls `condition` every 5 ms until it holds; throws `TimedOut` naming `what` after
/// `seconds`. The condition runs on the caller's actor.
public func waitUntil(
    _ what: @autoclosure () -> String, seconds: Double = defaultWaitSeconds, isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    try await waitFor(what(), seconds: seconds) { try await condition() ? () : nil }
}

/// The blocking form of `waitUntil`, for synchronous code (a process's start or stop):
/// sleeps the calling thread between checks.
public func waitUntilBlocking(_ what: @autoclosure () -> String, seconds: Double = defaultWaitSeconds, _ condition: () throws -> Bool)
    throws
{
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what(), seconds: seconds) }
        Thread.sleep(forTimeInterval: 0.005)
    }
}

/// Polls `condition` every 5 ms until it holds, with a hang guard on progress instead of on the
/// whole wait: throws `TimedOut` naming `what` only when `progress` (a count that grows while the
/// awaited work goes on: acks, applied entries) stayed the same for `seconds`. For a wait for an
/// amount of work, whose length is the machine's speed (a loaded one gets through less in a
/// given time), not something the test checks.
public func waitUntil(
    _ what: @autoclosure () -> String, progressing progress: () async throws -> Int, seconds: Double = defaultWaitSeconds,
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async throws {
    var last = try await progress()
    var deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while try await !condition() {
        let now = try await progress()
        if now != last {
            last = now
            deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        }
        guard ContinuousClock.now < deadline else { throw TimedOut(what: "\(what()) (no progress from \(last))", seconds: seconds) }
        try await Task.sleep(for: .milliseconds(5))
    }
}
