/// Service-thread state of one client connection.
final class ClientSession: ReceivingSession {
    let request: ClientLoop.ConnectRequest
    /// The lws connection once `lws_client_connect_via_info` returned it (LWS.md §3.10).
    var wsi: OpaquePointer?
    /// True between `CLIENT_ESTABLISHED` and the end.
    var isOpen = false
    /// The server's `Sec-WebSocket-Protocol`, read while the handshake headers still exist.
    var selectedSubprotocol: String?
    var queue = SendQueue()
    var assembler: MessageAssembler
    /// The buffer of the last `lws_write`, kept until the next `WRITEABLE`/close.
    var lastWritten: Payload?
    var pendingClose: (code: UInt16, reason: String)?
    /// Close code and reason the server sent, if any.
    var peerClose: (code: UInt16, reason: String)?
    var rejectingInput = false
    /// The count of context creations when it was last dialled (`ContextCreations`).
    var contextsAtDial = ContextCreations.Mark()
    /// How often it was dialled again (`ClientLoop.redialLimit`).
    var redials = 0

    init(request: ClientLoop.ConnectRequest, maxMessageBytes: Int) {
        self.request = request
        assembler = MessageAssembler(limit: maxMessageBytes)
    }
}
