import CWebSockets

/// A connection that reassembles incoming messages: what `ServerSession` and `ClientSession`
/// share on the receive side.
protocol ReceivingSession: AnyObject {
    var assembler: MessageAssembler { get set }
    /// Set once a message was too large: every later `RECEIVE` is refused (LWS.md §3.3).
    var rejectingInput: Bool { get set }
}

extension ReceivingSession {
    /// Feeds one `RECEIVE` chunk of `wsi`; hands a completed message to `deliver`. Returns the
    /// callback's result: -1 (close) for a message over the limit, after queueing close 1009.
    func receive(
        _ chunk: UnsafeRawBufferPointer, on wsi: OpaquePointer, metrics: TransportMetrics,
        deliver: ([UInt8], _ isText: Bool) -> Void
    ) -> Int32 {
        let step = assembler.append(
            chunk, first: lws_is_first_fragment(wsi) != 0,
            final: lws_is_final_fragment(wsi) != 0,
            binary: lws_frame_is_binary(wsi) != 0)
        switch step {
        case .partial:
            return 0
        case .complete(let message, let isText):
            metrics.messagesIn.wrappingAdd(1, ordering: .relaxed)
            metrics.bytesIn.wrappingAdd(message.count, ordering: .relaxed)
            deliver(message, isText)
            return 0
        case .tooLarge:
            metrics.messagesTooLarge.wrappingAdd(1, ordering: .relaxed)
            rejectingInput = true
            ServerLoop.sendCloseReason(wsi, code: 1009, reason: "message too big")
            return -1
        }
    }
}
