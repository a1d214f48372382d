import CWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// The lws protocol callback of the server. Runs on the service thread only.
func serverCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let raw = lws_context_user(lws_get_context(wsi)) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    // The loop outlives its context: used where it lies, not retained (a locked instruction,
    // ~6 callbacks per set).
    return Unmanaged<ServerLoop>.fromOpaque(raw)._withUnsafeGuaranteedRef { loop in
        loop.handle(wsi, reason, user, input, length)
    }
}

extension ServerLoop {
    /// One lws callback of this loop's context (`serverCallback`).
    fileprivate func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        // Work hosted on this thread runs when the outermost callback ends (ServerLoop+Hosted).
        hosting.depth += 1
        defer {
            hosting.depth -= 1
            if hosting.depth == 0 { finishCallback() }
        }
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            applyInbox()
            return 0  // nonzero would close lws' own cancel pipe (LWS.md §3.6)
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            let socket = Int32(Int(bitPattern: input))
            // Kept until its request line says where it goes (ServerLoop+Steering).
            if steering != nil { return holdsForSteering(socket) ? 1 : 0 }
            // Handed to another service thread: lws closes its descriptor, a duplicate lives on there.
            if handOff?(socket, nil, nil) == true { return 1 }
            return admits(acceptedSocket: socket) ? 0 : 1
        case LWS_CALLBACK_WSI_CREATE:
            created(wsi)
            return 0
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            return acceptsHandshake(wsi) ? 0 : 1
        case LWS_CALLBACK_ESTABLISHED:
            opened(wsi)
            return 0
        case LWS_CALLBACK_RECEIVE:
            return received(wsi, UnsafeRawBufferPointer(start: input, count: length))
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return writeable(wsi)
        case LWS_CALLBACK_CLOSED:
            closed(wsi)
            return 0
        case LWS_CALLBACK_HTTP:
            let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
            return http(wsi, path: path)
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return httpWriteable(wsi)
        case LWS_CALLBACK_WSI_DESTROY:
            httpBodies[wsi] = nil
            receivedBeforeRequest[wsi] = nil
            destroyed(wsi)
            return 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }
}

extension ServerLoop {
    /// The session of `wsi`, kept (unretained) in lws' opaque user data from `ESTABLISHED` to
    /// `CLOSED`, where `sessions` holds it.
    func session(_ wsi: OpaquePointer) -> ServerSession? {
        lws_get_opaque_user_data(wsi).map { Unmanaged<ServerSession>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Admits a WebSocket upgrade. lws 4.1.6 checks neither the method, nor
    /// `Sec-WebSocket-Version`, nor the key's form; RFC 6455 §4.2.1 wants a GET, version 13 and
    /// a base64 16-byte key, so anything else gets HTTP 400 here. Capacity is checked at accept
    /// (`admits(acceptedSocket:)`); a shutdown that began since gets 503.
    func acceptsHandshake(_ wsi: OpaquePointer) -> Bool {
        guard lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0, Self.header(wsi, WSI_TOKEN_VERSION) == "13",
            Self.header(wsi, WSI_TOKEN_KEY).map(Self.isHandshakeKey) == true
        else {
            _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_BAD_REQUEST.rawValue), nil)
            return false
        }
        guard !headersTooLarge(wsi) else {
            _ = lws_return_http_status(wsi, UInt32(Self.requestHeaderFieldsTooLarge.rawValue), nil)
            return false
        }
        guard !stopping else {
            metrics.connectionsRejected.wrappingAdd(1, ordering: .relaxed)
            _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_SERVICE_UNAVAILABLE.rawValue), nil)
            return false
        }
        return true
    }

    /// Whether `key` is 24 base64 characters ending in "==" (16 bytes encoded).
    static func isHandshakeKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        return bytes.count == 24 && bytes[22...] == [61, 61]
            && bytes[..<22].allSatisfy { b in
                (65...90).contains(b) || (97...122).contains(b) || (48...57).contains(b) || b == 43 || b == 47
            }
    }

    func opened(_ wsi: OpaquePointer) {
        if configuration.socketSendBufferBytes > 0 {
            var size = Int32(configuration.socketSendBufferBytes)
            _ = setsockopt(lws_get_socket_fd(wsi), SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let id = makeSessionID()
        let stats = SessionStats()
        let session = ServerSession(id: id, wsi: wsi, stats: stats, maxMessageBytes: configuration.maxMessageBytes)
        sessions.insert(session)
        lws_set_opaque_user_data(wsi, Unmanaged.passUnretained(session).toOpaque())
        sessionStats.withLock { $0[id] = stats }
        metrics.connectionsOpened.wrappingAdd(1, ordering: .relaxed)
        metrics.connectionsCurrent.wrappingAdd(1, ordering: .relaxed)
        let info = SessionInfo(
            remoteAddress: Self.peerAddress(wsi), origin: Self.header(wsi, WSI_TOKEN_ORIGIN),
            path: Self.header(wsi, WSI_TOKEN_GET_URI) ?? "/")
        handler.opened(id, info: info)
    }

    /// The session of `wsi` lent, not retained: `sessions` holds it until its `CLOSED`, which
    /// lws calls only after the callback at hand returns.
    func lentSession(_ wsi: OpaquePointer) -> Unmanaged<ServerSession>? {
        lws_get_opaque_user_data(wsi).map { Unmanaged<ServerSession>.fromOpaque($0) }
    }

    func received(_ wsi: OpaquePointer, _ chunk: UnsafeRawBufferPointer) -> Int32 {
        guard let lent = lentSession(wsi) else { return -1 }
        return lent._withUnsafeGuaranteedRef { session in
            guard !session.rejectingInput else { return -1 }
            session.writesAtOnce = false
            switch session.receive(chunk, on: wsi, stripe: stripe, metrics: metrics) {
            case .partial:
                return 0
            case .complete(let message, let isText):
                if configuration.maxUnhandledMessagesPerSession > 0 { session.unhandledMessages += 1 }
                handler.received(session.id, message: message, isText: isText)
                updateReading(session)
                return 0
            case .tooLarge:
                return -1
            }
        }
    }

    func writeable(_ wsi: OpaquePointer) -> Int32 {
        guard let lent = lentSession(wsi) else { return 0 }
        return lent._withUnsafeGuaranteedRef { writeable(wsi, $0) }
    }

    private func writeable(_ wsi: OpaquePointer, _ session: ServerSession) -> Int32 {
        session.awaitingWriteable = false
        session.writesAtOnce = true
        if let close = session.pendingClose, close.immediate || session.queue.isEmpty {
            Self.sendCloseReason(wsi, code: close.code, reason: close.reason)
            return -1
        }
        var tally = WriteTally()
        let accepted = writeNext(session, tally: &tally)
        tally.publish(to: stripe)
        publishQueuedBytes(session)
        guard accepted else { return -1 }
        if !session.queue.isEmpty || session.pendingClose != nil { requestWriteable(session) }
        updateReading(session)
        return 0
    }

    /// Hands the next write of the session's queue to lws, counted in `tally`; false if lws
    /// failed it (the connection is dead). The caller publishes the queued bytes.
    private func writeNext(_ session: ServerSession, tally: inout WriteTally) -> Bool {
        guard
            let write = session.queue.write(
                to: session.wsi, coalescingInto: coalescing,
                copyEveryWrite: false, tally: &tally)
        else { return true }
        // The buffer is not kept: the server offers no extension (no permessage-deflate, the
        // one that reads a buffer after `lws_write` returns, LWS.md §3.2), and lws copies what
        // the socket did not take into its own list. An idle connection kept its last message.
        return write.accepted
    }

    /// Asks lws for a `WRITEABLE` of the session (once until it comes).
    func requestWriteable(_ session: ServerSession) {
        guard !session.awaitingWriteable else { return }
        session.awaitingWriteable = true
        lws_callback_on_writable(session.wsi)
    }

    /// Writes to every session whose queue went from empty to non-empty during this inbox
    /// drain, at once when lws holds nothing unsent for it (`lws_partial_buffered`) and it
    /// received nothing since its last `WRITEABLE` (`writesAtOnce`): one
    /// `send()` per session instead of a `poll()` round per batch. Everything queued in the
    /// drain leaves as one coalesced write.
    ///
    /// A session that received something since its last `WRITEABLE` may owe a pong or a close
    /// reply that lws sends only from its own writable handling, so its write must go through
    /// that handling: its `WRITEABLE` is requested and the loop is told at once that its
    /// socket is writable (`rs_ev_feed_writable`), so lws runs that handling, pong or close
    /// first, then our `WRITEABLE`, in this pass of the loop, without the `epoll_ctl`s and
    /// the wait of a real writable event. A session that already waits for one (its socket
    /// was full, or lws holds part of a write) waits for the real event. The writes are counted
    /// in the metrics once, at the end.
    ///
    /// `outsideLws` (the hosted timer's flush, no lws call under way): instead of being fed to
    /// the loop, the writable handling of those sessions runs here, after the direct writes
    /// (`rs_service_writable`, in the same order). Fed, each socket event would start lws'
    /// idle watcher, and the loop would make one more `epoll_wait` before it sleeps: on a
    /// wake-up by the timer, the one that found nothing to do.
    func flushNewlyQueued(outsideLws: Bool = false) {
        // The spare storage becomes the next list; a nested flush finds none and allocates.
        var flush: [Unmanaged<ServerSession>] = []
        swap(&flush, &flushStorage)
        swap(&flush, &newlyQueued)
        var tally = WriteTally()
        defer {
            tally.publish(to: stripe)
            // `removeAll(keepingCapacity:)` goes through the generic `replaceSubrange`.
            while flush.popLast() != nil {}
            flushStorage = flush
        }
        // lws' state of every session read first, in a loop of its own: the reads find the
        // sessions and their connections out of cache (they were last touched one advance
        // ago), and with nothing else in the loop the processor overlaps them, where each
        // write's `send()` between them made them wait one after the other. A write changes
        // no other session's state in lws. The list lends the sessions (no retain: a locked
        // instruction, which would make each read wait for the last); one closed since it
        // was listed is kept alive by `closedWhileListed` until this flush is over.
        // The same loop asks for the session's published queued bytes, which the write
        // updates next.
        for listed in flush {
            listed._withUnsafeGuaranteedRef { session in
                guard !session.isClosed else { return }
                session.heldOutputAtFlush = lws_partial_buffered(session.wsi) != 0
                rs_prefetch(Unmanaged.passUnretained(session.stats).toOpaque(), SessionStats.bytes)
            }
        }
        for listed in flush {
            listed._withUnsafeGuaranteedRef { session in
                guard !session.isClosed else { return }
                if !session.queue.isEmpty { write(session, outsideLws: outsideLws, tally: &tally) }
                // Once per flushed session, what its appends and write left.
                publishQueuedBytes(session)
            }
        }
        // Unlisted only now: a session listed twice (its queue replaced) stays held until its
        // last entry is read.
        for listed in flush { listed._withUnsafeGuaranteedRef { $0.listedForFlush = false } }
        serviceWritable()
        // What no flush lists any more (a nested one may have listed a session again).
        if !closedWhileListed.isEmpty { closedWhileListed.removeAll { !$0.listedForFlush } }
    }

    /// A flushed session's queue: written at once, or through lws' writable handling (see
    /// `flushNewlyQueued`).
    private func write(_ session: ServerSession, outsideLws: Bool, tally: inout WriteTally) {
        if session.writesAtOnce, !session.awaitingWriteable, session.pendingClose == nil,
            !session.heldOutputAtFlush
        {
            guard writeNext(session, tally: &tally) else {
                lws_set_timeout(session.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
                return
            }
            tally.direct += 1
            updateReading(session)
            if !session.queue.isEmpty { requestWriteable(session) }
            return
        }
        let feeds = !session.awaitingWriteable && !session.heldOutputAtFlush
        requestWriteable(session)
        guard feeds, let eventLoop else { return }
        tally.fed += 1
        if outsideLws {
            servicedStorage.append(session)
        } else {
            rs_ev_feed_writable(eventLoop, lws_get_socket_fd(session.wsi))
        }
    }

    /// Runs lws' writable handling of the sessions the flush put in `servicedStorage`, each
    /// still open and still waiting for it, then empties the list (its storage kept).
    private func serviceWritable() {
        guard let context else { return }
        while !servicedStorage.isEmpty {
            var serviced: [ServerSession] = []
            swap(&serviced, &servicedStorage)
            for session in serviced where !session.isClosed && session.awaitingWriteable {
                _ = rs_service_writable(context, session.wsi)
            }
            while serviced.popLast() != nil {}
            // Kept unless a flush run meanwhile left sessions of its own, served next.
            if servicedStorage.isEmpty { servicedStorage = serviced }
        }
    }

    func closed(_ wsi: OpaquePointer) {
        guard let session = session(wsi) else { return }
        lws_set_opaque_user_data(wsi, nil)
        session.isClosed = true
        // `newlyQueued` (or the flush under way) lends it: kept alive until the flush is over.
        if session.listedForFlush { closedWhileListed.append(session) }
        metrics.messagesDropped.wrappingAdd(session.queue.count, ordering: .relaxed)
        stripe.queuedBytes.wrappingAdd(-session.queue.bytes, ordering: .relaxed)
        stripe.queuedMessages.wrappingAdd(-session.queue.count, ordering: .relaxed)
        session.queue = SendQueue()
        sessions.remove(session.id)
        sessionStats.withLock { $0[session.id] = nil }
        metrics.connectionsCurrent.wrappingAdd(-1, ordering: .relaxed)
        handler.closed(session.id)
        if stopping && sessions.isEmpty { exitRequested = true }
    }

    /// Applies every pending command, in submit order; hosted work waits for the end of the
    /// callback.
    func applyInbox() {
        var batch: [Input] = []
        swap(&batch, &drainStorage)
        inbox.drain(into: &batch)
        hosting.applyingInbox = true
        defer {
            hosting.applyingInbox = false
            batch.removeAll(keepingCapacity: true)
            drainStorage = batch
        }
        for input in batch {
            switch input {
            case .command(let command): apply(command, inTransit: true)
            case .run(let work): hosting.work.append(HostedWork(run: work))
            case .stop(let code): beginStop(closeCode: code)
            case .adoptAdmitted(let fd, let address): adopt(fd, admitted: address)
            }
        }
        flushNewlyQueued()
    }

    /// Applies one command. `inTransit`: its sends were counted in transit when submitted
    /// (through the inbox); a command of the service thread itself is applied at once.
    func apply(_ command: WebSocketServer.Command, inTransit: Bool) {
        switch command {
        case .send(let payload, let ids):
            if inTransit { stripe.bytesInTransit.subtract(payload.count * ids.count, ordering: .relaxed) }
            // The gauges change once per send, not once per recipient.
            var tally = WriteTally()
            if case .one(let id) = ids.storage {
                sessions.lend(id)?._withUnsafeGuaranteedRef { deliver(payload, to: $0, inTransit: inTransit, tally: &tally) }
            } else {
                deliver(payload, toEach: ids, inTransit: inTransit, tally: &tally)
            }
            tally.publish(to: stripe)
        case .close(let id, let code, let reason):
            if let session = sessions[id] { requestClose(session, code: code, reason: reason, immediate: false) }
        case .replaceQueue(let id, let payloads):
            replaceQueue(of: id, with: payloads)
        case .handled(let id):
            handled(id)
        case .adopt(let fd):
            adopt(fd)
        case .reloadCertificates(let done):
            done(reloadCertificates())
        }
    }

    /// Queues `payload` for every session of `ids` that is open, in two passes: the first
    /// looks them all up and asks for their lines (`ServerSession.hotBytes`), the second
    /// queues. Each session was last touched one advance ago and is out of cache at 100 rooms;
    /// queued one after the other, each waited for its own lines (perf put nearly half of this
    /// loop's samples on a session's first read), where asked for together the misses overlap.
    /// The sessions are lent by the table (no retain): nothing the second pass does runs lws'
    /// service, so none of them is closed before it is done.
    private func deliver(_ payload: Payload, toEach ids: SessionIDs, inTransit: Bool, tally: inout WriteTally) {
        // The spare storage becomes this send's list; a nested send finds none and allocates.
        var recipients: [Unmanaged<ServerSession>] = []
        swap(&recipients, &recipientStorage)
        ids.forEachID { id in
            guard let lent = sessions.lend(id) else { return }
            rs_prefetch(lent.toOpaque(), ServerSession.hotBytes)
            recipients.append(lent)
        }
        for lent in recipients {
            lent._withUnsafeGuaranteedRef { deliver(payload, to: $0, inTransit: inTransit, tally: &tally) }
        }
        // `removeAll(keepingCapacity:)` goes through the generic `replaceSubrange`.
        while recipients.popLast() != nil {}
        recipientStorage = recipients
    }

    /// Queues `payload` for `session`. A send from another thread was counted in the
    /// session's bytes in transit until now: its queued bytes are published first, so a
    /// reader never misses the payload in both.
    private func deliver(_ payload: Payload, to session: ServerSession, inTransit: Bool, tally: inout WriteTally) {
        enqueue(payload, to: session, tally: &tally)
        guard inTransit else { return }
        publishQueuedBytes(session)
        session.stats.inTransit.subtract(payload.count, ordering: .relaxed)
    }

    private func enqueue(_ payload: Payload, to session: ServerSession, tally: inout WriteTally) {
        if session.pendingClose != nil || session.overflowed {
            metrics.messagesDropped.wrappingAdd(1, ordering: .relaxed)
            return
        }
        if session.queue.bytes + payload.count > configuration.maxQueuedBytesPerSession {
            // The handler hears of the overflow with the gauges up to date.
            tally.publish(to: stripe)
            tally = WriteTally()
            overflow(session)
            return
        }
        append(payload, to: session, tally: &tally)
    }

    /// Queues `payload` for `session`; the change of the gauges goes into `tally`. Its queued
    /// bytes are published by the flush that lists it, or here when none does.
    private func append(_ payload: Payload, to session: ServerSession, tally: inout WriteTally) {
        let wasEmpty = session.queue.isEmpty
        session.queue.append(payload)
        tally.queuedBytes += payload.count
        tally.queuedMessages += 1
        if wasEmpty {
            // The flush at the end of this callback publishes its queued bytes.
            session.listedForFlush = true
            newlyQueued.append(Unmanaged.passUnretained(session))
        } else if !session.listedForFlush {
            // It waits for its `WRITEABLE`: no flush lists it.
            publishQueuedBytes(session)
        }
        if !session.readingPaused, session.queue.bytes > configuration.maxQueuedBytesPerSession / 2 { updateReading(session) }
    }

    private func overflow(_ session: ServerSession) {
        metrics.queueOverflows.wrappingAdd(1, ordering: .relaxed)
        metrics.messagesDropped.wrappingAdd(1, ordering: .relaxed)
        session.overflowed = true
        handler.sendQueueOverflow(session.id, queuedBytes: session.queue.bytes)
        if case .close(let code) = configuration.overflowPolicy {
            requestClose(session, code: code, reason: "send queue overflow", immediate: true)
        }
    }

    private func replaceQueue(of id: SessionID, with payloads: [Payload]) {
        guard let session = sessions[id], session.pendingClose == nil else { return }
        discardQueue(of: session)
        session.overflowed = false
        var tally = WriteTally()
        for payload in payloads { append(payload, to: session, tally: &tally) }
        tally.publish(to: stripe)
    }

    /// Stores the close code and reason lws sends when the callback then returns -1.
    static func sendCloseReason(_ wsi: OpaquePointer, code: UInt16, reason: String) {
        var bytes = Array(reason.utf8.prefix(123))
        bytes.withUnsafeMutableBufferPointer { buffer in
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), buffer.baseAddress, buffer.count)
        }
    }

    static func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A request header's value: nil when the header is absent, "" when it is sent empty.
    static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else {
            // Fragment 0 exists (length 0) only for a header that was sent.
            var empty: CChar = 0
            return lws_hdr_copy_fragment(wsi, &empty, 1, token, 0) >= 0 ? "" : nil
        }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
