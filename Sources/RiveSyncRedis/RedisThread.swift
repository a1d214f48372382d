import Glibc

/// A joinable pthread running one closure (the blocking reads of a `RedisStreamReader`).
final class RedisThread: Sendable {
    private let thread: pthread_t

    /// Starts a thread running `body`.
    init(_ body: @escaping @Sendable () -> Void) throws(RedisError) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw .connectFailed("pthread_create returned \(status)")
        }
        self.thread = thread
    }

    /// Waits for the thread's closure to return (call once).
    func join() { pthread_join(thread, nil) }
}
