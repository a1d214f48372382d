/// Service-thread state of one WebSocket session of a server.
///
/// Its `var`s are touched only on the service thread, each access ending before another to
/// the same field begins, so they carry no run-time exclusivity check (`@exclusivity(unchecked)`:
/// one cost ~80 instructions, several per session per send; bench/README.md, "The set path,
/// round four").
final class ServerSession: ReceivingSession {
    /// A close that waits for the queue to drain (caller close) or not (limits, shutdown).
    struct PendingClose {
        let code: UInt16
        let reason: String
        let immediate: Bool
    }

    let id: SessionID
    /// The lws connection; valid until `CLOSED`.
    let wsi: OpaquePointer
    // What a delivery and a flush read lie first, after the object's header, in this order
    // (Swift keeps a class's stored properties in declaration order): the queue, the flags,
    // the pending close. A send prefetches them (`hotBytes`) for all its recipients before
    // it queues for any.
    @exclusivity(unchecked) var queue = SendQueue()
    @exclusivity(unchecked) var overflowed = false
    /// A `WRITEABLE` was requested and has not come yet.
    @exclusivity(unchecked) var awaitingWriteable = false
    /// Whether a write may leave outside `WRITEABLE`: set there, cleared by every `RECEIVE`.
    /// lws answers pings and closes only from its own writable handling, so a reply to
    /// something just received must not overtake the pong or close lws still owes.
    @exclusivity(unchecked) var writesAtOnce = false
    /// lws rx flow control is off for this session (`ServerLoop.updateReading`).
    @exclusivity(unchecked) var readingPaused = false
    /// Set at `CLOSED`, when the session leaves the loop's `sessions`: a list that still holds
    /// it (`newlyQueued`) skips it.
    @exclusivity(unchecked) var isClosed = false
    /// Listed in the loop's `newlyQueued`, which does not retain it: from the append that made
    /// its queue non-empty until the flush that takes the list reads it.
    @exclusivity(unchecked) var listedForFlush = false
    /// Whether lws held unsent bytes of the session (`lws_partial_buffered`) when the current
    /// flush began: read for all of its sessions before its first write (`flushNewlyQueued`).
    @exclusivity(unchecked) var heldOutputAtFlush = false
    /// Set once an incoming message was refused; every later `RECEIVE` returns -1 (LWS.md §3.3).
    @exclusivity(unchecked) var rejectingInput = false
    @exclusivity(unchecked) var pendingClose: PendingClose?
    /// The queued bytes as other threads read them (`WebSocketServer.queuedBytes`), stored
    /// when the queue has changed and its service thread is done with it for now
    /// (`publishQueuedBytes`).
    let stats: SessionStats
    /// Messages delivered to the handler and not yet reported done (`Command.handled`).
    @exclusivity(unchecked) var unhandledMessages = 0
    @exclusivity(unchecked) var assembler: MessageAssembler

    /// Bytes from the start of a session's object that hold what a delivery and a flush read:
    /// the object's header and `id`, `wsi` (32), `queue` (48), the flags (8), `pendingClose`
    /// (25) on 64-bit (`SessionLayoutTests`).
    static let hotBytes = 113

    init(id: SessionID, wsi: OpaquePointer, stats: SessionStats, maxMessageBytes: Int) {
        self.id = id
        self.wsi = wsi
        self.stats = stats
        assembler = MessageAssembler(limit: maxMessageBytes)
    }
}
