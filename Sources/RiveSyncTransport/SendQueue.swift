import CWebSockets

/// One `lws_write` call produced by a `SendQueue`, with the buffer it writes from (the client
/// keeps it until its connection's next `WRITEABLE` or `CLOSED`, LWS.md §3.2).
struct WriteUnit {
    /// Owner of the bytes at `pointer`; has `LWS_PRE` headroom before `pointer`.
    let buffer: Payload
    /// Number of bytes to write.
    let length: Int
    /// The `lws_write` protocol flags.
    let flags: lws_write_protocol
    /// Whole messages finished by this write.
    let completedMessages: Int
    /// Message bytes (without frame headers) carried by this write.
    let payloadBytes: Int
}

/// What `SendQueue.write(to:coalesceLimit:copyEveryWrite:metrics:)` did.
struct QueueWrite {
    /// The written buffer (the client keeps it until the next `WRITEABLE`/`CLOSED`, LWS.md §3.2).
    let buffer: Payload
    /// False if lws failed the write (the connection is dead).
    let accepted: Bool
    /// Change of the queue's byte and message counts, for the gauges.
    let bytesDelta: Int
    let countDelta: Int
}

/// A per-connection FIFO of outgoing messages, turned into `lws_write` calls.
///
/// Touched only on the service thread. Large messages leave as fragments of at most
/// `fragmentSize` bytes, each copied into its own buffer with headroom (LWS.md §3.5). When
/// `coalesceLimit > 0` (server role, no permessage-deflate), consecutive small messages are
/// pre-framed into one raw write (LWS.md §5). When `copyEveryWrite` is set (client role:
/// frames are masked in place, LWS.md §3.4), every write gets a fresh buffer.
struct SendQueue {
    /// Largest frame payload written at once.
    static let fragmentSize = 64 * 1024

    private var items: [Payload] = []
    private var head = 0
    /// Bytes of the head message already sent as fragments.
    private var headOffset = 0
    /// Bytes of all queued messages not yet completely written.
    private(set) var bytes = 0

    /// Whether nothing is left to write.
    var isEmpty: Bool { head == items.count }

    /// Number of queued messages, including a partly written one.
    var count: Int { items.count - head }

    /// Appends a message.
    mutating func append(_ payload: Payload) {
        items.append(payload)
        bytes += payload.count
    }

    /// Drops every message that has not started leaving (a partly sent one is kept so the
    /// stream stays well-formed) and returns how many were dropped.
    mutating func discardUnstarted() -> Int {
        let keep = headOffset > 0 && !isEmpty ? [items[head]] : []
        let dropped = count - keep.count
        items = keep
        head = 0
        bytes = keep.first.map { $0.count } ?? 0
        return dropped
    }

    /// Produces the next write, or nil when the queue is empty.
    mutating func next(coalesceLimit: Int, copyEveryWrite: Bool) -> WriteUnit? {
        guard !isEmpty else { return nil }
        let message = items[head]
        if headOffset > 0 || message.count > SendQueue.fragmentSize {
            return nextFragment(of: message)
        }
        if coalesceLimit > 0, count > 1,
            FrameHeader.size(payloadCount: message.count) + message.count < coalesceLimit
        {
            return coalesced(limit: coalesceLimit)
        }
        pop()
        let buffer = copyEveryWrite ? message.withUnsafeBytes { Payload(copying: $0, isText: message.isText) } : message
        return WriteUnit(
            buffer: buffer, length: message.count, flags: Self.flags(for: message),
            completedMessages: 1, payloadBytes: message.count)
    }

    /// Hands the next write to lws and counts it in `metrics` (writes, messages and bytes
    /// out); nil when the queue is empty. Client and server sessions both write this way.
    mutating func write(to wsi: OpaquePointer, coalesceLimit: Int, copyEveryWrite: Bool, metrics: TransportMetrics) -> QueueWrite? {
        let bytesBefore = bytes
        let countBefore = count
        guard let unit = next(coalesceLimit: coalesceLimit, copyEveryWrite: copyEveryWrite) else { return nil }
        let written = lws_write(wsi, unit.buffer.base.assumingMemoryBound(to: UInt8.self), unit.length, unit.flags)
        if written >= 0 {
            metrics.writes.wrappingAdd(1, ordering: .relaxed)
            metrics.messagesOut.wrappingAdd(unit.completedMessages, ordering: .relaxed)
            metrics.bytesOut.wrappingAdd(unit.payloadBytes, ordering: .relaxed)
        }
        return QueueWrite(buffer: unit.buffer, accepted: written >= 0, bytesDelta: bytes - bytesBefore, countDelta: count - countBefore)
    }

    private mutating func nextFragment(of message: Payload) -> WriteUnit {
        let length = min(SendQueue.fragmentSize, message.count - headOffset)
        let isFirst = headOffset == 0
        let isLast = headOffset + length == message.count
        let fragment = Payload(count: length, isText: message.isText) { target in
            target.baseAddress!.copyMemory(from: message.base + headOffset, byteCount: length)
        }
        let flags = lws_write_ws_flags(Int32(Self.flags(for: message).rawValue), isFirst ? 1 : 0, isLast ? 1 : 0)
        headOffset += length
        if isLast { pop() }
        return WriteUnit(
            buffer: fragment, length: length, flags: lws_write_protocol(rawValue: UInt32(flags)),
            completedMessages: isLast ? 1 : 0, payloadBytes: length)
    }

    /// Frames consecutive small messages into one buffer for a single raw write.
    private mutating func coalesced(limit: Int) -> WriteUnit {
        var total = 0
        var end = head
        while end < items.count {
            let size = FrameHeader.size(payloadCount: items[end].count) + items[end].count
            if end > head && total + size > limit { break }
            total += size
            end += 1
        }
        let batch = items[head..<end]
        let buffer = Payload(count: total, isText: false) { target in
            var cursor = target.baseAddress!
            for message in batch {
                cursor += FrameHeader.write(payloadCount: message.count, isText: message.isText, to: cursor)
                if message.count > 0 { cursor.copyMemory(from: message.base, byteCount: message.count) }
                cursor += message.count
            }
        }
        let payloadBytes = batch.reduce(0) { $0 + $1.count }
        for _ in batch { pop() }
        return WriteUnit(
            buffer: buffer, length: total, flags: lws_write_protocol(rawValue: UInt32(rs_write_raw())),
            completedMessages: batch.count, payloadBytes: payloadBytes)
    }

    private mutating func pop() {
        bytes -= items[head].count
        head += 1
        headOffset = 0
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
    }

    private static func flags(for message: Payload) -> lws_write_protocol {
        message.isText ? LWS_WRITE_TEXT : LWS_WRITE_BINARY
    }
}
