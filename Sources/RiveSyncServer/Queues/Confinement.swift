import Dispatch

extension DispatchQueue {
    /// Stops a debug build when the caller is not on this queue: the check of a type whose
    /// state is confined to the queue (its `@unchecked Sendable` rule). Release builds check
    /// nothing.
    func assertConfined() {
        #if DEBUG
            dispatchPrecondition(condition: .onQueue(self))
        #endif
    }
}
