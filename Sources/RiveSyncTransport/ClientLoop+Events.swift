import CWebSockets

/// The lws protocol callback of the client. Runs on the service thread only.
func clientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let raw = lws_context_user(lws_get_context(wsi)) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let loop = Unmanaged<ClientLoop>.fromOpaque(raw).takeUnretainedValue()
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        loop.applyInbox()
        return 0  // nonzero would close lws' own cancel pipe (LWS.md §3.6)
    case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
        return loop.appendHeaders(wsi, input, length)
    case LWS_CALLBACK_CLIENT_FILTER_PRE_ESTABLISH:
        loop.session(wsi)?.selectedSubprotocol = ServerLoop.header(wsi, WSI_TOKEN_PROTOCOL)
        return 0
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        loop.established(wsi)
        return 0
    case LWS_CALLBACK_CLIENT_RECEIVE:
        return loop.received(wsi, UnsafeRawBufferPointer(start: input, count: length))
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return loop.writeable(wsi)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        loop.peerClosed(wsi, UnsafeRawBufferPointer(start: input, count: length))
        return 0
    case LWS_CALLBACK_CLIENT_CLOSED:
        if let session = loop.session(wsi) {
            let close = session.peerClose
            loop.finish(session, with: .closed(code: close?.code, reason: close?.reason ?? ""))
        }
        return 0
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        if let session = loop.session(wsi), !loop.redialsAfterContextCreation(session) {
            let message = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection error"
            if session.isOpen {
                loop.finish(session, with: .closed(code: nil, reason: message))
            } else {
                loop.finish(session, with: .failed(message))
            }
        }
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}

extension ClientLoop {
    /// The session of `wsi`, through the id in lws' opaque user data (set at connect).
    func session(_ wsi: OpaquePointer) -> ClientSession? {
        let id = UInt64(UInt(bitPattern: lws_get_opaque_user_data(wsi)))
        return id == 0 ? nil : sessions[id]
    }

    func appendHeaders(_ wsi: OpaquePointer, _ cursor: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let session = session(wsi), let cursor else { return 0 }
        for header in session.request.headers {
            let name = header.name.hasSuffix(":") ? header.name : header.name + ":"
            if rs_append_header(wsi, name, header.value, cursor, length) != 0 { return -1 }
        }
        return 0
    }

    func established(_ wsi: OpaquePointer) {
        guard let session = session(wsi) else { return }
        session.wsi = wsi
        session.isOpen = true
        metrics.connectionsOpened.wrappingAdd(1, ordering: .relaxed)
        metrics.connectionsCurrent.wrappingAdd(1, ordering: .relaxed)
        session.request.onEvent(.opened(subprotocol: session.selectedSubprotocol))
        if !session.queue.isEmpty || session.pendingClose != nil { lws_callback_on_writable(wsi) }
    }

    func received(_ wsi: OpaquePointer, _ chunk: UnsafeRawBufferPointer) -> Int32 {
        guard let session = session(wsi), !session.rejectingInput else { return -1 }
        switch session.receive(chunk, on: wsi, stripe: stripe, metrics: metrics) {
        case .partial:
            return 0
        case .complete(let message, let isText):
            session.request.onEvent(.message(message, isText: isText))
            return 0
        case .tooLarge:
            return -1
        }
    }

    func writeable(_ wsi: OpaquePointer) -> Int32 {
        guard let session = session(wsi) else { return 0 }
        session.lastWritten = nil
        if let close = session.pendingClose, stopping || session.queue.isEmpty {
            ServerLoop.sendCloseReason(wsi, code: close.code, reason: close.reason)
            return -1
        }
        var tally = WriteTally()
        guard let write = session.queue.write(to: wsi, coalescingInto: nil, copyEveryWrite: true, tally: &tally) else { return 0 }
        tally.publish(to: stripe)
        session.lastWritten = write.buffer
        if !write.accepted { return -1 }
        if !session.queue.isEmpty || session.pendingClose != nil { lws_callback_on_writable(wsi) }
        return 0
    }

    /// Records the code and reason of the server's close frame (lws answers it itself).
    func peerClosed(_ wsi: OpaquePointer, _ payload: UnsafeRawBufferPointer) {
        guard let session = session(wsi), payload.count >= 2 else { return }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        session.peerClose = (code, String(decoding: payload.dropFirst(2), as: UTF8.self))
    }
}
