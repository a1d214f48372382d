#if canImport(Glibc)
    import Glibc
#endif

/// A one-shot result handed from one thread to another that blocks for it.
///
/// The service thread reports its start-up outcome through a latch; `start()` waits on it.
/// `@unchecked Sendable`: `value` is read and written only while `mutex` is held.
final class Latch<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value?

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Stores the value (first call wins) and wakes the waiter.
    func fulfil(_ newValue: Value) {
        pthread_mutex_lock(mutex)
        if value == nil { value = newValue }
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until `fulfil` has been called, then returns its value.
    func wait() -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let value { return value }
            pthread_cond_wait(condition, mutex)
        }
    }
}
