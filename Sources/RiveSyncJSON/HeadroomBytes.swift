/// Bytes written into one heap block that keeps `headroom` bytes free in front of them, so that
/// a transport which writes a frame's header right before its message (lws' `LWS_PRE`) sends
/// them where they were written, with no copy.
///
/// Written by one thread (`JSONOutput`), then only read; the headroom belongs to whoever sends
/// the bytes (`unsafeMessageStart`). Nothing here reads or writes the headroom. The fields
/// carry no run-time exclusivity check: they change only while the bytes are written, before
/// the buffer is shared (that, and the headroom being left to the sender, is what makes the
/// `@unchecked Sendable` sound).
public final class HeadroomBytes: JSONOutput, @unchecked Sendable {
    /// Free bytes before the message.
    public let headroom: Int
    /// The first message byte (`headroom` bytes into the block).
    @usableFromInline @exclusivity(unchecked) var start: UnsafeMutableRawPointer
    @usableFromInline @exclusivity(unchecked) var used = 0
    /// Message bytes the block holds.
    @usableFromInline @exclusivity(unchecked) var capacity: Int

    /// An empty message with room for `capacity` bytes after `headroom` free bytes.
    public init(headroom: Int, capacity: Int = 64) {
        precondition(headroom >= 0 && capacity >= 0)
        self.headroom = headroom
        self.capacity = max(capacity, 1)
        start = .allocate(byteCount: headroom + self.capacity, alignment: 16) + headroom
    }

    /// A copy of `bytes`, after `headroom` free bytes.
    public convenience init(copying bytes: [UInt8], headroom: Int) {
        self.init(headroom: headroom, capacity: bytes.count)
        bytes.withUnsafeBytes { append(contentsOf: $0) }
    }

    deinit { (start - headroom).deallocate() }

    /// Number of message bytes.
    public var count: Int { used }

    @inlinable
    public func append(_ byte: UInt8) {
        if used == capacity { grow(toHold: used + 1) }
        start.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
        used += 1
    }

    @inlinable
    public func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if bytes.count > capacity - used { grow(toHold: used + bytes.count) }
        (start + used).copyMemory(from: source, byteCount: bytes.count)
        used += bytes.count
    }

    @inlinable
    public func reserveCapacity(_ count: Int) {
        if count > capacity { grow(toHold: count) }
    }

    /// Moves the message (and the headroom, unwritten) to a block of at least `count` bytes,
    /// doubling as an array does.
    @usableFromInline
    func grow(toHold count: Int) {
        let newCapacity = max(count, capacity * 2)
        let block = UnsafeMutableRawPointer.allocate(byteCount: headroom + newCapacity, alignment: 16)
        (block + headroom).copyMemory(from: start, byteCount: used)
        (start - headroom).deallocate()
        start = block + headroom
        capacity = newCapacity
    }

    /// Calls `body` with the message bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: start, count: used))
    }

    /// A copy of the message bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The first message byte, with `headroom` writable bytes before it, for a transport that
    /// sends the message where it lies: it may write the headroom (on one thread at a time, as
    /// long as this object lives) and must not write the message.
    public var unsafeMessageStart: UnsafeMutableRawPointer { start }
}
