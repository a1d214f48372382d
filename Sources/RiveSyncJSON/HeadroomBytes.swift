/// Bytes written into one heap block that keeps `headroom` bytes free in front of them, so that
/// a transport which writes a frame's header right before its message (lws' `LWS_PRE`) sends
/// them where they were written, with no copy.
///
/// The block is one allocation: its counts, the headroom, then the message (`ManagedBuffer`).
/// Copies share it and are copied on write. Once shared with a transport (`owner`,
/// `unsafeMessageStart`), the bytes are only read and the headroom is the transport's;
/// nothing here reads or writes the headroom (that is what makes `@unchecked Sendable` sound).
public struct HeadroomBytes: JSONOutput, @unchecked Sendable {
    @usableFromInline var block: HeadroomBlock

    /// An empty message with room for `capacity` bytes after `headroom` free bytes.
    public init(headroom: Int, capacity: Int = 64) {
        precondition(headroom >= 0 && capacity >= 0)
        block = HeadroomBlock.make(headroom: headroom, capacity: max(capacity, 1))
    }

    /// The bytes a `HeadroomWriter` wrote into `block`.
    init(block: HeadroomBlock) { self.block = block }

    /// A copy of `bytes`, after `headroom` free bytes.
    public init(copying bytes: [UInt8], headroom: Int) {
        self.init(headroom: headroom, capacity: bytes.count)
        bytes.withUnsafeBytes { append(contentsOf: $0) }
    }

    /// Free bytes before the message.
    public var headroom: Int { block.shape.pointee.headroom }

    /// Number of message bytes.
    public var count: Int { block.shape.pointee.count }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        let count = block.shape.pointee.count
        if count == block.shape.pointee.capacity || !isKnownUniquelyReferenced(&block) { grow(toHold: count + 1) }
        block.messageStart.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        block.shape.pointee.count = count + 1
    }

    @inlinable
    public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let count = block.shape.pointee.count
        if bytes.count > block.shape.pointee.capacity - count || !isKnownUniquelyReferenced(&block) {
            grow(toHold: count + bytes.count)
        }
        (block.messageStart + count).copyMemory(from: source, byteCount: bytes.count)
        block.shape.pointee.count = count + bytes.count
    }

    @inlinable
    public mutating func reserveCapacity(_ count: Int) {
        if count > block.shape.pointee.capacity || !isKnownUniquelyReferenced(&block) { grow(toHold: count) }
    }

    /// Moves the message (not the headroom) into a block of at least `count` bytes of its own,
    /// doubling as an array does.
    @usableFromInline
    mutating func grow(toHold count: Int) {
        let shape = block.shape.pointee
        let moved = HeadroomBlock.make(headroom: shape.headroom, capacity: max(count, shape.capacity * 2))
        moved.messageStart.copyMemory(from: block.messageStart, byteCount: shape.count)
        moved.shape.pointee.count = shape.count
        block = moved
    }

    /// Calls `body` with the message bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(block) { try body(UnsafeRawBufferPointer(start: block.messageStart, count: count)) }
    }

    /// A copy of the message bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// What keeps the bytes at `unsafeMessageStart` alive: a transport that sends them where
    /// they lie holds it as long as it uses them (and does nothing else with it).
    public var owner: AnyObject { block }

    /// The first message byte, with `headroom` writable bytes before it, valid while `owner`
    /// lives, for a transport that sends the message where it lies: it may write the headroom
    /// (on one thread at a time) and must not write the message.
    public var unsafeMessageStart: UnsafeMutableRawPointer { block.messageStart }
}

/// The counts at the head of a `HeadroomBlock`.
@usableFromInline
struct HeadroomShape {
    @usableFromInline let headroom: Int
    /// Message bytes the block holds.
    @usableFromInline let capacity: Int
    /// Message bytes written.
    @usableFromInline var count = 0

    @usableFromInline
    init(headroom: Int, capacity: Int) {
        self.headroom = headroom
        self.capacity = capacity
    }
}

/// One allocation: the counts, `headroom` free bytes, then room for `capacity` message bytes.
/// Its bytes do not move while it lives (a class instance's tail), which is what lets a
/// transport hold a pointer to them along with the block.
@usableFromInline
final class HeadroomBlock: ManagedBuffer<HeadroomShape, UInt8> {
    @usableFromInline
    static func make(headroom: Int, capacity: Int) -> HeadroomBlock {
        let made = create(minimumCapacity: headroom + capacity) { _ in HeadroomShape(headroom: headroom, capacity: capacity) }
        return unsafeDowncast(made, to: HeadroomBlock.self)
    }

    // The counts and bytes are reached through pointers (they stay put while the block
    // lives): `header`, a class's stored property, would make each access a run-time
    // exclusivity check.

    /// The counts.
    @inlinable
    var shape: UnsafeMutablePointer<HeadroomShape> { withUnsafeMutablePointerToHeader { $0 } }

    /// The first message byte.
    @inlinable
    var messageStart: UnsafeMutableRawPointer {
        withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) + shape.pointee.headroom }
    }
}
