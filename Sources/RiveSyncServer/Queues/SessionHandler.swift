import RiveSyncTransport

/// Turns transport events (on the service thread) into the work of that thread's dispatcher,
/// without blocking.
final class SessionHandler: WebSocketServerHandler {
    let dispatcher: Dispatchers

    init(dispatcher: Dispatchers) { self.dispatcher = dispatcher }

    func opened(_ id: SessionID, info: SessionInfo) { dispatcher.opened(id, info: info) }
    func received(_ id: SessionID, message: [UInt8], isText: Bool) { dispatcher.received(id, bytes: message, isText: isText) }
    func closed(_ id: SessionID) { dispatcher.closed(id) }
    /// The transport closes the session (policy `.close(1008)`); batches stop well before
    /// this through the catch-up mechanism, so only a peer that reads nothing at all gets here.
    func sendQueueOverflow(_ id: SessionID, queuedBytes: Int) {}
}
