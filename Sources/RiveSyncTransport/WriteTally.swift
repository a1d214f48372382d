/// What a run of writes on a service thread adds to its `TransportMetrics`, counted in plain
/// integers and added to the shared atomics once (`publish(to:)`): a flush that writes to
/// every member of a room makes one atomic add per counter, not one per counter per write
/// (each a locked instruction that also waits for the thread's pending stores).
struct WriteTally {
    /// `lws_write` calls that lws accepted.
    var writes = 0
    /// Whole messages and their bytes (without frame headers) those writes finished.
    var messages = 0
    var bytes = 0
    /// Change of the queued bytes and messages (the gauges).
    var queuedBytes = 0
    var queuedMessages = 0
    /// Writes made at once (`directWrites`) and writable events fed (`fedWrites`).
    var direct = 0
    var fed = 0

    /// Adds the counts to the service thread's `stripe` (relaxed, as every update of them).
    func publish(to stripe: TransportStripe) {
        if writes != 0 {
            stripe.writes.wrappingAdd(writes, ordering: .relaxed)
            stripe.messagesOut.wrappingAdd(messages, ordering: .relaxed)
            stripe.bytesOut.wrappingAdd(bytes, ordering: .relaxed)
        }
        if queuedBytes != 0 { stripe.queuedBytes.wrappingAdd(queuedBytes, ordering: .relaxed) }
        if queuedMessages != 0 { stripe.queuedMessages.wrappingAdd(queuedMessages, ordering: .relaxed) }
        if direct != 0 { stripe.directWrites.wrappingAdd(direct, ordering: .relaxed) }
        if fed != 0 { stripe.fedWrites.wrappingAdd(fed, ordering: .relaxed) }
    }
}
