/// Reassembles one WebSocket message from lws `RECEIVE` chunks and enforces a size limit.
///
/// lws hands a message over as several chunks (continuation frames, and big frames split by
/// its rx buffer). `first` / `final` come from `lws_is_first_fragment` / `lws_is_final_fragment`,
/// whose final flag already accounts for the remaining payload (LWS.md §3.11).
struct MessageAssembler {
    /// Outcome of feeding one chunk.
    enum Step {
        /// More chunks of this message are to come.
        case partial
        /// A whole message.
        case complete([UInt8], isText: Bool)
        /// The message would exceed the limit; nothing is kept.
        case tooLarge
    }

    /// Largest accepted message, in bytes.
    let limit: Int
    private var buffer: [UInt8] = []
    private var isText = false

    init(limit: Int) { self.limit = limit }

    /// Feeds one chunk.
    mutating func append(_ chunk: UnsafeRawBufferPointer, first: Bool, final: Bool, binary: Bool) -> Step {
        if first {
            buffer.removeAll(keepingCapacity: false)
            isText = !binary
        }
        guard buffer.count + chunk.count <= limit else {
            buffer = []
            return .tooLarge
        }
        if first && final { return .complete(Array(chunk), isText: isText) }
        buffer.append(contentsOf: chunk)
        guard final else { return .partial }
        defer { buffer = [] }
        return .complete(buffer, isText: isText)
    }
}
