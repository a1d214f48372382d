/// Where command numbers come from (acks and batches carry them). They must be unique across
/// everything that appends to the same logs: a daemon-wide counter on one node, a shared
/// allocator in a cluster. Injected into the core.
public protocol CommandNumbers: AnyObject, Sendable {
    /// A fresh command number, above every number handed out or seen before.
    func next() -> UInt64

    /// `count` fresh numbers handed out together, increasing, with no other number of this
    /// allocator between them (a transaction's commands, PROTOCOL.md §16).
    func next(count: Int) -> [UInt64]

    /// After a restore (or another node's record): later numbers must be above `highest`.
    func ensure(above highest: UInt64)
}
