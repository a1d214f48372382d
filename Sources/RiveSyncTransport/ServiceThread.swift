#if canImport(Glibc)
    import Glibc
#endif

/// A joinable pthread running one closure: the lws service thread. `Sendable` as checked: its
/// thread is a constant once made, the rest is locked.
final class ServiceThread: Sendable {
    private let thread: pthread_t
    private let joined = Locked(false)
    private let runningThread: Locked<pthread_t?>

    /// Starts a thread running `body`.
    init(_ body: @escaping @Sendable () -> Void) throws(TransportError) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let running = Locked<pthread_t?>(nil)
        let box = Unmanaged.passRetained(
            Box {
                running.withLock { $0 = pthread_self() }
                body()
            }
        ).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        if rc != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            throw TransportError(.threadCreationFailed, "pthread_create returned \(rc)")
        }
        self.thread = thread
        runningThread = running
    }

    /// Waits for the thread to finish. Safe to call more than once; only the first call of
    /// `join` or `detach` has an effect.
    func join() {
        if claim() { pthread_join(thread, nil) }
    }

    /// Lets the thread finish on its own (used when its owner is released on that very thread).
    func detach() {
        if claim() { pthread_detach(thread) }
    }

    private func claim() -> Bool {
        joined.withLock { done in
            defer { done = true }
            return !done
        }
    }

    /// True when called on this thread.
    var isCurrent: Bool {
        runningThread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }
}
