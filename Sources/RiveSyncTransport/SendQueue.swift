import CWebSockets

/// One `lws_write` call produced by a `SendQueue`, with the buffer it writes from (the client
/// keeps it until its connection's next `WRITEABLE` or `CLOSED`, LWS.md §3.2).
struct WriteUnit {
    /// What the write sends (its bytes, or the frame at `start`), kept alive by the unit; nil
    /// for a coalesced write (its loop keeps the coalescing buffer's block).
    let buffer: Payload?
    /// First byte to write: `buffer`'s bytes (with `LWS_PRE` headroom before them), or its
    /// frame header for a raw write of a whole message (`Payload.framed`).
    let start: UnsafeMutableRawPointer
    /// Number of bytes to write.
    let length: Int
    /// The `lws_write` protocol flags.
    let flags: lws_write_protocol
    /// Whole messages finished by this write.
    let completedMessages: Int
    /// Message bytes (without frame headers) carried by this write.
    let payloadBytes: Int
}

/// What `SendQueue.write(to:coalescingInto:copyEveryWrite:tally:)` did.
struct QueueWrite {
    /// The written buffer (the client keeps it until the next `WRITEABLE`/`CLOSED`, LWS.md §3.2);
    /// nil for a coalesced write.
    let buffer: Payload?
    /// False if lws failed the write (the connection is dead).
    let accepted: Bool
}

/// Where a server's service thread frames its coalesced writes: `limit` bytes after the
/// headroom of one block, reused write after write. The server keeps no buffer after
/// `lws_write` (it offers no extension, and lws copies what the socket did not take), so the
/// next coalesced write may overwrite the last. The loop that made it keeps the block
/// (`ServerLoop.coalescingBlock`); the buffer itself holds only its start and its limit, so
/// that handing it to a write retains nothing.
struct CoalescingBuffer {
    /// The first byte a write is framed at (the block's first message byte).
    let start: UnsafeMutableRawPointer
    /// Most bytes (frame headers included) one coalesced write carries.
    let limit: Int

    /// A block of `limit` bytes and the buffer in it; the caller keeps the block as long as it
    /// uses the buffer.
    static func make(limit: Int) -> (block: PayloadBlock, buffer: CoalescingBuffer) {
        let block = PayloadBlock.make(messageBytes: limit)
        return (block, CoalescingBuffer(start: block.messageStart, limit: limit))
    }
}

/// A per-connection FIFO of outgoing messages, turned into `lws_write` calls.
///
/// Touched only on the service thread. Large messages leave as fragments of at most
/// `fragmentSize` bytes, each copied into its own buffer with headroom (LWS.md §3.5). With a
/// `CoalescingBuffer` (server role, no permessage-deflate), consecutive small messages are
/// pre-framed into it for one raw write (LWS.md §5). When `copyEveryWrite` is set (client role:
/// frames are masked in place, LWS.md §3.4), every write gets a fresh buffer.
///
/// The messages lie in a ring whose storage is kept once grown: queueing and writing a message
/// allocate nothing. The ring's size is kept here, beside the counts, and its slots are reached
/// through their address: queueing a message only stores into the ring (no bounds check, no
/// uniqueness check, no read of the slot's old value), so the ring's memory, often not in
/// cache when a room's batch reaches a connection, costs no wait there (bench/README.md, "The
/// transport's wake-ups and deliveries").
struct SendQueue {
    /// Largest frame payload written at once.
    static let fragmentSize = 64 * 1024

    /// The ring (nil until the first message): slot `head` holds the oldest message, `count`
    /// follow it (wrapping); a slot outside the queued range is nil.
    private var ring: SendRing?
    /// The ring's number of slots: 0 or a power of two.
    private var capacity = 0
    private var head = 0
    /// Number of queued messages, including a partly written one.
    private(set) var count = 0
    /// Bytes of the head message already sent as fragments.
    private var headOffset = 0
    /// Bytes of all queued messages not yet completely written.
    private(set) var bytes = 0

    /// Whether nothing is left to write.
    var isEmpty: Bool { count == 0 }

    /// Appends a message.
    mutating func append(_ payload: Payload) {
        if count == capacity { grow() }
        let index = (head + count) & (capacity - 1)
        // The slot is outside the queued range, so it holds nil (nothing to release): the
        // message is written over it without reading it.
        ring.unsafelyUnwrapped.withUnsafeMutablePointerToElements { ($0 + index).initialize(to: payload) }
        count += 1
        bytes += payload.count
    }

    /// Doubles the ring (2 slots at first), the messages moved to its start in order.
    private mutating func grow() {
        let grownCapacity = max(2, capacity * 2)
        let grown = SendRing.make(capacity: grownCapacity)
        if let ring {
            let (head, count, mask) = (head, count, capacity - 1)
            ring.withUnsafeMutablePointerToElements { old in
                grown.withUnsafeMutablePointerToElements { new in
                    for offset in 0..<count { new[offset] = old[(head + offset) & mask].take() }
                }
            }
        }
        ring = grown
        capacity = grownCapacity
        head = 0
    }

    /// The head message's byte count (the queue must not be empty), read where it lies.
    private var headCount: Int {
        let head = head
        return ring.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0[head].unsafelyUnwrapped.count }
    }

    /// Drops every message that has not started leaving (a partly sent one is kept so the
    /// stream stays well-formed) and returns how many were dropped.
    mutating func discardUnstarted() -> Int {
        let keep = headOffset > 0 && !isEmpty ? 1 : 0
        let dropped = count - keep
        if let ring {
            let (head, count, mask) = (head, count, capacity - 1)
            ring.withUnsafeMutablePointerToElements { slots in
                for offset in keep..<count { slots[(head + offset) & mask] = nil }
            }
        }
        count = keep
        bytes = keep == 1 ? headCount : 0
        if keep == 0 { head = 0 }
        return dropped
    }

    /// Produces the next write; the queue must not be empty.
    mutating func next(coalescingInto coalescing: CoalescingBuffer?, copyEveryWrite: Bool) -> WriteUnit {
        precondition(!isEmpty, "next() of an empty send queue")
        // The head is looked at in its slot and moved out when it leaves: no copy of it (a
        // retain and a release per delivery).
        let headCount = headCount
        if headOffset > 0 || headCount > SendQueue.fragmentSize {
            return nextFragment()
        }
        if let coalescing, count > 1,
            FrameHeader.size(payloadCount: headCount) + headCount < coalescing.limit
        {
            return coalesced(into: coalescing)
        }
        let message = takeHead()
        guard copyEveryWrite else {
            // The frame its header was written for when it was made: a raw write, so that lws
            // writes nothing into a block other sessions and threads may be sending.
            let framed = message.framed
            return WriteUnit(
                buffer: message, start: framed.start, length: framed.count, flags: Self.raw, completedMessages: 1,
                payloadBytes: message.count)
        }
        let copy = message.withUnsafeBytes { Payload(copying: $0, isText: message.isText) }
        return WriteUnit(
            buffer: copy, start: copy.base, length: message.count, flags: Self.flags(for: message),
            completedMessages: 1, payloadBytes: message.count)
    }

    /// Hands the next write to lws and counts it in `tally` (writes, messages and bytes out,
    /// the queue's change); nil when the queue is empty. Client and server sessions both write
    /// this way.
    mutating func write(
        to wsi: OpaquePointer, coalescingInto coalescing: CoalescingBuffer?, copyEveryWrite: Bool, tally: inout WriteTally
    ) -> QueueWrite? {
        guard !isEmpty else { return nil }
        let bytesBefore = bytes
        let countBefore = count
        let unit = next(coalescingInto: coalescing, copyEveryWrite: copyEveryWrite)
        let written = lws_write(wsi, unit.start.assumingMemoryBound(to: UInt8.self), unit.length, unit.flags)
        if written >= 0 {
            tally.writes += 1
            tally.messages += unit.completedMessages
            tally.bytes += unit.payloadBytes
        }
        tally.queuedBytes += bytes - bytesBefore
        tally.queuedMessages += count - countBefore
        return QueueWrite(buffer: unit.buffer, accepted: written >= 0)
    }

    private mutating func nextFragment() -> WriteUnit {
        let head = head
        let message = ring.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0[head].unsafelyUnwrapped }
        let length = min(SendQueue.fragmentSize, message.count - headOffset)
        let isFirst = headOffset == 0
        let isLast = headOffset + length == message.count
        let fragment = Payload(count: length, isText: message.isText) { target in
            target.baseAddress!.copyMemory(from: message.base + headOffset, byteCount: length)
        }
        let flags = lws_write_ws_flags(Int32(Self.flags(for: message).rawValue), isFirst ? 1 : 0, isLast ? 1 : 0)
        headOffset += length
        if isLast { _ = takeHead() }
        return WriteUnit(
            buffer: fragment, start: fragment.base, length: length, flags: lws_write_protocol(rawValue: UInt32(flags)),
            completedMessages: isLast ? 1 : 0, payloadBytes: length)
    }

    /// Frames consecutive small messages into the coalescing buffer for a single raw write,
    /// each one leaving the queue once copied.
    private mutating func coalesced(into coalescing: CoalescingBuffer) -> WriteUnit {
        let start = coalescing.start
        var total = 0
        var taken = 0
        var payloadBytes = 0
        while !isEmpty {
            let messageCount = headCount
            let size = FrameHeader.size(payloadCount: messageCount) + messageCount
            if taken > 0 && total + size > coalescing.limit { break }
            let message = takeHead()
            let cursor = start + total
            let header = FrameHeader.write(payloadCount: message.count, isText: message.isText, to: cursor)
            if message.count > 0 { (cursor + header).copyMemory(from: message.base, byteCount: message.count) }
            total += size
            payloadBytes += message.count
            taken += 1
        }
        // No payload made for it (its owner retained and released once per write): the bytes
        // are the loop's, and the server keeps nothing after `lws_write`.
        return WriteUnit(
            buffer: nil, start: start, length: total, flags: Self.raw,
            completedMessages: taken, payloadBytes: payloadBytes)
    }

    /// Removes the head message and returns it, moved out of its slot (no copy).
    private mutating func takeHead() -> Payload {
        let taken = head
        let message = ring.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0[taken].take().unsafelyUnwrapped }
        bytes -= message.count
        head = (taken + 1) & (capacity - 1)
        count -= 1
        headOffset = 0
        if count == 0 { head = 0 }
        return message
    }

    /// `lws_write`'s flags for bytes sent as they are (frames made here): `LWS_WRITE_RAW`, a
    /// macro alias of `LWS_WRITE_HTTP`. A constant, not a static made at first use: the
    /// `swift_once` that reads such a static on every write came between taking a message out
    /// of the ring and writing it, and the compiler retained the message across it.
    private static var raw: lws_write_protocol { LWS_WRITE_HTTP }

    private static func flags(for message: Payload) -> lws_write_protocol {
        message.isText ? LWS_WRITE_TEXT : LWS_WRITE_BINARY
    }
}

/// A send queue's ring storage: `capacity` slots after the header, each nil or a queued
/// message, all of them released with the ring. Owned by one queue, never shared.
final class SendRing: ManagedBuffer<Int, Payload?> {
    /// A ring of `capacity` empty slots.
    static func make(capacity: Int) -> SendRing {
        let made = create(minimumCapacity: capacity) { _ in capacity }
        made.withUnsafeMutablePointerToElements { $0.initialize(repeating: nil, count: capacity) }
        return unsafeDowncast(made, to: SendRing.self)
    }

    deinit {
        withUnsafeMutablePointers { capacity, slots in _ = slots.deinitialize(count: capacity.pointee) }
    }
}
