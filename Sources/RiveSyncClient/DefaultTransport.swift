import RiveSyncWebSocket

#if RIVESYNC_LIBWEBSOCKETS
    import RiveSyncLibWebSockets
#else
    import RiveSyncFoundationWebSocket
#endif

extension Worker {
    /// The transport a `Worker` uses unless told otherwise: libwebsockets on Linux
    /// (`LibWebSocketsTransport`), Foundation's `URLSessionWebSocketTask` elsewhere
    /// (`FoundationWebSocketTransport`). The package manifest picks it; see the README.
    public static var defaultTransport: any WebSocketTransport {
        #if RIVESYNC_LIBWEBSOCKETS
            LibWebSocketsTransport()
        #else
            FoundationWebSocketTransport()
        #endif
    }
}
