import Dispatch

/// Runs blocking work (starting or killing processes, synchronous Redis calls, waits that poll
/// with `Thread.sleep`) on a dispatch thread instead of Swift's cooperative pool, which has
/// only as many threads as cores: a test that blocks one there stalls every other test.
/// Throws what `body` throws (nothing when it throws nothing).
public func offThePool<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    PoolStarvation.watch()
    let result: Result<T, E> = await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: Result { () throws(E) -> T in try body() })
        }
    }
    return try result.get()
}

/// Something a test starts and must end (a process, or a group of them) whose ending blocks
/// until it is over: async tests end it with `stopping(_:_:)`, off the pool.
public protocol StoppedAfterUse: Sendable {
    /// Ends it and waits until it is over (blocking the calling thread).
    func stopAndWait()
}

/// Runs `body` with `resource`, then stops it on a dispatch thread, also when `body` throws
/// (the async form of `defer { resource.stop() }`, which would block a pool thread).
///
/// In `body` (a closure), Swift 6.3.1 compiles a closure written in a `#expect`/`#require`
/// argument under the name of the next closure that is not in a macro argument; when both have
/// one type, that next closure runs the first one's body. Take such values before the macro
/// (`let x = try await offThePool { … }`, then `#require(x)`), or put the body in a function.
public func stopping<R: StoppedAfterUse, T>(
    _ resource: R, isolation: isolated (any Actor)? = #isolation, _ body: (R) async throws -> T
) async throws -> T {
    let outcome: Result<T, any Error>
    do {
        outcome = .success(try await body(resource))
    } catch {
        outcome = .failure(error)
    }
    await offThePool { resource.stopAndWait() }
    return try outcome.get()
}

extension Array: StoppedAfterUse where Element: StoppedAfterUse {
    /// Stops each, in order.
    public func stopAndWait() { for element in self { element.stopAndWait() } }
}
