import Dispatch

/// Runs blocking work (starting or killing processes, synchronous Redis calls, waits that poll
/// with `Thread.sleep`) on a dispatch thread instead of Swift's cooperative pool, which has
/// only as many threads as cores: a test that blocks one there stalls every other test.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}
