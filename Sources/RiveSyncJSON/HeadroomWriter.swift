/// Writes one message into a `HeadroomBytes` block that it alone holds, through a cursor: an
/// append is a bounds check and a store. (An append to `HeadroomBytes` also asks whether its
/// block is shared and reads and writes the block's count: ~50 instructions a member name.)
///
/// Non-copyable, so the block cannot be shared while it is written; `finish` hands the bytes
/// over. Give `capacity` the message's expected size: the room grows, doubling, past it.
public struct HeadroomWriter: ~Copyable, JSONOutput {
    @usableFromInline var block: HeadroomBlock
    /// Where the next byte goes.
    @usableFromInline var cursor: UnsafeMutableRawPointer
    /// The end of the block's room.
    @usableFromInline var end: UnsafeMutableRawPointer

    /// A writer with room for `capacity` bytes after `headroom` free bytes.
    public init(headroom: Int, capacity: Int) {
        precondition(headroom >= 0 && capacity >= 0)
        block = HeadroomBlock.make(headroom: headroom, capacity: max(capacity, 1))
        cursor = block.messageStart
        end = cursor + block.shape.pointee.capacity
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if cursor == end { grow(by: 1) }
        cursor.storeBytes(of: byte, as: UInt8.self)
        cursor += 1
    }

    @inlinable @inline(__always)
    public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        if bytes.count > end - cursor { grow(by: bytes.count) }
        cursor.copyMemory(from: source, byteCount: bytes.count)
        cursor += bytes.count
    }

    @inlinable
    public mutating func reserveCapacity(_ count: Int) {
        let start = block.messageStart
        if count > end - start { grow(by: count - (cursor - start)) }
    }

    /// Moves the bytes written into a block with room for `count` more, at least twice the
    /// room it had.
    @usableFromInline
    mutating func grow(by count: Int) {
        let start = block.messageStart
        let written = cursor - start
        let moved = HeadroomBlock.make(headroom: block.shape.pointee.headroom, capacity: max(written + count, 2 * (end - start)))
        moved.messageStart.copyMemory(from: start, byteCount: written)
        block = moved
        cursor = moved.messageStart + written
        end = moved.messageStart + moved.shape.pointee.capacity
    }

    /// Bytes written so far.
    public var count: Int { cursor - block.messageStart }

    /// The message written.
    public consuming func finish() -> HeadroomBytes {
        block.shape.pointee.count = cursor - block.messageStart
        return HeadroomBytes(block: block)
    }
}
