import Foundation

/// A value behind a lock, for state that synchronous calls share with the session (Mutex
/// needs macOS 15 and iOS 18; the client supports older systems). `@unchecked Sendable`:
/// `value` is read and written only inside `withLock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
