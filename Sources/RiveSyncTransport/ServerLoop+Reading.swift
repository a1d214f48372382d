import CWebSockets

/// Back-pressure on the receive side: a session is not read (lws rx flow control off) while
///
/// - lws holds part of a write it could not hand to the kernel (`lws_partial_buffered`): the
///   peer is not reading. This one is also a fix for lws 4.1.6: when such a peer half-closes,
///   lws reads 0, starts a close that waits for the unsent bytes, and its service loop
///   retries the same poll slot at once, forever, inside one `lws_service` call — no timers,
///   no inbox, no shutdown (100 % CPU on `recvfrom() = 0`). Unread, the end of stream waits
///   until the bytes have left (or the idle timeout closes the session).
/// - its send queue holds more than half of `maxQueuedBytesPerSession`: replies it does not
///   read stop the requests that make them.
/// - more than `maxUnhandledMessagesPerSession` of its messages were delivered and not yet
///   reported done with `Command.handled`: work queued behind the handler stays bounded.
///
/// Reading resumes as soon as none holds; the rest of a read chunk waits in lws' buffer.
extension ServerLoop {
    /// Switches the session's reading on or off to match the rules above. When lws holds a
    /// partial write, asks for a `WRITEABLE` (it comes once that write is complete), where
    /// this is checked again.
    func updateReading(_ session: ServerSession) {
        let partial = lws_partial_buffered(session.wsi) != 0
        let unhandledLimit = configuration.maxUnhandledMessagesPerSession
        let pause =
            partial || session.queue.bytes > configuration.maxQueuedBytesPerSession / 2
            || (unhandledLimit > 0 && session.unhandledMessages >= unhandledLimit)
        if partial { requestWriteable(session) }
        guard pause != session.readingPaused else { return }
        session.readingPaused = pause
        if pause { metrics.readPauses.wrappingAdd(1, ordering: .relaxed) }
        _ = lws_rx_flow_control(session.wsi, pause ? 0 : 1)
    }

    /// `Command.handled`: one delivered message of the session is done with.
    func handled(_ id: SessionID) {
        // Lent by the table (no retain): one per message received.
        sessions.lend(id)?._withUnsafeGuaranteedRef { session in
            guard session.unhandledMessages > 0 else { return }
            session.unhandledMessages -= 1
            updateReading(session)
        }
    }
}
