#if canImport(Glibc)
    import Glibc
#endif

/// A value guarded by a heap-allocated `pthread_mutex_t`.
///
/// Used instead of `Synchronization.Mutex`, which makes ThreadSanitizer report false
/// "Swift access race"s on the protected data (LWS.md §4). The mutex lives on the heap so
/// its address never moves. `@unchecked Sendable`: `value` is read and written only while
/// `mutex` is held (in `withLock`), which also makes its run-time exclusivity check
/// redundant (`@exclusivity(unchecked)`).
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @exclusivity(unchecked) @usableFromInline var value: Value

    /// Creates a lock protecting `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Keep `body` short and non-blocking.
    /// Inlinable: specialized where it is called (a generic call into this module costs ~250
    /// instructions, several times per set).
    @inlinable
    public func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
