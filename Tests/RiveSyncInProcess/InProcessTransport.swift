import RiveSyncWebSocket

/// The client's `WebSocketTransport` onto an `InProcessDaemon`: each `connect` opens a session
/// on the daemon's dispatcher (whatever the URL), text goes to the dispatcher as received
/// bytes, and the daemon's messages and close come back as the connection's events. No socket:
/// what a client test checks here is the protocol's logic, not framing.
package struct InProcessTransport: WebSocketTransport {
    package let daemon: InProcessDaemon

    package init(_ daemon: InProcessDaemon) { self.daemon = daemon }

    package func connect(to url: String, subprotocol: String) throws -> (
        connection: any WebSocketConnection, events: AsyncStream<WebSocketEvent>
    ) {
        let (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
        continuation.yield(.opened(subprotocol: subprotocol))
        let client = daemon.connect { delivery in
            switch delivery {
            case .message(let bytes):
                continuation.yield(.message(bytes))
            case .closed(let code):
                continuation.yield(.closed(code: code, reason: ""))
                continuation.finish()
            }
        }
        return (InProcessConnection(client: client, events: continuation), events)
    }
}

/// One connection of an `InProcessTransport`.
struct InProcessConnection: WebSocketConnection {
    let client: InProcessClient
    let events: AsyncStream<WebSocketEvent>.Continuation

    func send(text: String) { client.sendRaw(text) }

    /// Ends the session from the client's side; the daemon's answer to the close is the code
    /// itself, as a peer's echo.
    func close(code: UInt16, reason: String) {
        client.daemon.outlet.stopDelivering(client.session)
        client.close()
        events.yield(.closed(code: code, reason: reason))
        events.finish()
    }
}
