import RiveSyncTransport

/// The way out of the daemon's logic to the transport: the WebSocket server, or a recorder in
/// an in-process test (which also says how much is queued for a session, to test back-pressure).
/// A class, so that reading the context's outlet (a few times per event) retains one reference
/// instead of copying an existential's buffer through its value witness.
package protocol TransportOutlet: AnyObject, Sendable {
    /// Hands commands to the transport in one submit; false when it is not running.
    @discardableResult
    func submit(_ commands: [WebSocketServer.Command]) -> Bool
    /// Bytes queued for a session, nil for a session it does not know.
    func queuedBytes(_ id: SessionID) -> Int?
    /// Bytes queued for all sessions together.
    var totalQueuedBytes: Int { get }
}

extension WebSocketServer: TransportOutlet {}
