import CWebSockets

/// A connection that reassembles incoming messages: what `ServerSession` and `ClientSession`
/// share on the receive side.
protocol ReceivingSession: AnyObject {
    var assembler: MessageAssembler { get set }
    /// Set once a message was too large: every later `RECEIVE` is refused (LWS.md §3.3).
    var rejectingInput: Bool { get set }
}

extension ReceivingSession {
    /// Feeds one `RECEIVE` chunk of `wsi` and returns what it completed: a message for the
    /// caller to deliver, or `.tooLarge` after queueing close 1009 (the callback then returns
    /// -1). Returned, not handed to a closure: a closure that captured the loop and the session
    /// retained both for every message, and the message was copied into its call.
    func receive(
        _ chunk: UnsafeRawBufferPointer, on wsi: OpaquePointer, stripe: TransportStripe, metrics: TransportMetrics
    ) -> MessageAssembler.Step {
        let step = assembler.append(
            chunk, first: lws_is_first_fragment(wsi) != 0,
            final: lws_is_final_fragment(wsi) != 0,
            binary: lws_frame_is_binary(wsi) != 0)
        switch step {
        case .partial:
            break
        case .complete(let message, _):
            stripe.messagesIn.wrappingAdd(1, ordering: .relaxed)
            stripe.bytesIn.wrappingAdd(message.count, ordering: .relaxed)
        case .tooLarge:
            metrics.messagesTooLarge.wrappingAdd(1, ordering: .relaxed)
            rejectingInput = true
            ServerLoop.sendCloseReason(wsi, code: 1009, reason: "message too big")
        }
        return step
    }
}
