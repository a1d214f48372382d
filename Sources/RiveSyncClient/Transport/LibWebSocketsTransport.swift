// Compiled where the manifest gives the client libwebsockets (RIVESYNC_LIBWEBSOCKETS: Linux unless
// RIVESYNC_CLIENT_TRANSPORT=foundation); RiveSyncTransport is then among the client's dependencies.
#if RIVESYNC_LIBWEBSOCKETS
    import RiveSyncTransport
    import RiveSyncWebSocket

    /// `WebSocketTransport` on libwebsockets (`RiveSyncTransport.WebSocketClient`): the client's
    /// default on Linux.
    ///
    /// Every connection of the process shares one lws client context and its service thread
    /// (several lws client contexts in one process leak OpenSSL state, see the transport README).
    public struct LibWebSocketsTransport: WebSocketTransport {
        /// The process-wide client context, made on first use.
        private static let client = Result { () throws(TransportError) -> WebSocketClient in try WebSocketClient() }

        /// TLS checks for `wss://` connections.
        public var tls: WebSocketClient.TLSOptions

        /// A transport with full TLS verification unless `tls` says otherwise.
        public init(tls: WebSocketClient.TLSOptions = .init()) {
            self.tls = tls
        }

        public func connect(to url: String, subprotocol: String) throws -> (
            connection: any WebSocketConnection, events: AsyncStream<WebSocketEvent>
        ) {
            let client: WebSocketClient
            do {
                client = try Self.client.get()
            } catch {
                throw WebSocketTransportError.unavailable("libwebsockets: \(error)")
            }
            let (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
            let connection: ClientConnection
            do {
                connection = try client.connect(to: url, subprotocol: subprotocol, tls: tls) { event in
                    continuation.yield(WebSocketEvent(event))
                    if event.isTerminal { continuation.finish() }
                }
            } catch {
                continuation.finish()
                throw error.kind == .invalidURL ? WebSocketTransportError.invalidURL(url) : WebSocketTransportError.unavailable("\(error)")
            }
            return (LibWebSocketsConnection(connection: connection), events)
        }
    }

    /// A `ClientConnection` seen through the seam.
    struct LibWebSocketsConnection: WebSocketConnection {
        let connection: ClientConnection

        func send(text: String) {
            connection.send(text: text)
        }

        func close(code: UInt16, reason: String) {
            connection.close(code: code, reason: reason)
        }
    }

    extension WebSocketEvent {
        /// The seam's form of an lws client event.
        init(_ event: ClientEvent) {
            switch event {
            case .opened(let subprotocol): self = .opened(subprotocol: subprotocol)
            case .message(let bytes, _): self = .message(bytes)
            case .closed(let code, let reason): self = .closed(code: code, reason: reason)
            case .failed(let reason): self = .failed(reason)
            }
        }
    }
#endif
