import RiveSyncWebSocket

#if !RIVESYNC_LIBWEBSOCKETS
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

    /// The default transport without certificate checks (self-signed, any host name), for
    /// tests against a daemon with a throwaway certificate; nil where the default transport
    /// cannot turn them off (Foundation's are the system's).
    public static var uncheckedTLSTransport: (any WebSocketTransport)? {
        #if RIVESYNC_LIBWEBSOCKETS
            LibWebSocketsTransport(tls: .init(allowSelfSigned: true, skipHostnameCheck: true))
        #else
            nil
        #endif
    }
}
