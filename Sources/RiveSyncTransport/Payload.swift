import CWebSockets

/// An immutable WebSocket message body, shareable across threads and sessions.
///
/// The bytes lie in one heap block with `LWS_PRE` bytes of headroom in front. `init` writes the
/// message's server frame header (FIN, text or binary, unmasked) at the end of the headroom, so
/// the server hands `framed` to `lws_write` as a raw write for every session of a broadcast,
/// on whichever service threads they are: nothing is written into the block after `init` (lws
/// writes a header into the headroom only for the frames it makes itself: the client's masked
/// copies and the fragments of a large message, each in a block of its own; LWS.md §3.4, §3.5).
/// The payload is a value that keeps its block alive: a `PayloadBlock` of its own (the copying
/// initializers), or the block another module wrote the bytes into (`init(sharing:)`, no copy
/// and no allocation of the transport's). Neither the bytes nor the header change after
/// `init`, which is what makes the `@unchecked Sendable` sound.
public struct Payload: @unchecked Sendable {
    /// Number of message bytes (without headroom).
    public let count: Int
    /// Start of the message bytes; `headroom` writable bytes precede it.
    let base: UnsafeMutableRawPointer
    /// What keeps the bytes alive; only held, never used, so any object may own the bytes of a
    /// `Sendable` payload.
    private let owner: AnyObject
    /// True for a text message (opcode 1), false for binary (opcode 2).
    public let isText: Bool

    /// Bytes of headroom lws needs before a buffer given to `lws_write`: a constant, not a
    /// static made at first use (whose `swift_once` every read would call).
    public static var headroom: Int { rs_lws_pre() }

    /// Creates an uninitialised payload of `count` bytes that `fill` writes exactly once.
    init(count: Int, isText: Bool, fill: (UnsafeMutableRawBufferPointer) -> Void) {
        let block = PayloadBlock.make(messageBytes: count)
        self.init(sharing: block.messageStart, count: count, isText: isText, owner: block)
        fill(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    /// A payload of the `count` bytes at `start`, sent where they lie: `owner` keeps them
    /// alive, at least `Payload.headroom` bytes before `start` are free for the transport's
    /// frame header (written here, once: a block shared again, such as a kept frame sent again,
    /// already has it and is only read), and nothing else writes the bytes or that headroom
    /// from now on.
    public init(sharing start: UnsafeMutableRawPointer, count: Int, isText: Bool, owner: AnyObject) {
        self.count = count
        base = start
        self.owner = owner
        self.isText = isText
        FrameHeader.writeIfDifferent(payloadCount: count, isText: isText, before: start)
    }

    /// The message as one server frame: its header (at the end of the headroom) and its bytes.
    var framed: (start: UnsafeMutableRawPointer, count: Int) {
        let header = FrameHeader.size(payloadCount: count)
        return (base - header, header + count)
    }

    /// Creates a payload by copying raw bytes.
    public init(copying bytes: UnsafeRawBufferPointer, isText: Bool) {
        self.init(count: bytes.count, isText: isText) { target in
            if let source = bytes.baseAddress, !bytes.isEmpty {
                target.baseAddress!.copyMemory(from: source, byteCount: bytes.count)
            }
        }
    }

    /// Creates a payload by copying `bytes`.
    public init(bytes: [UInt8], isText: Bool) {
        // One `memcpy` (`initializeMemory(as:from:)` with an array goes element by element).
        self.init(count: bytes.count, isText: isText) { target in
            bytes.withUnsafeBytes { source in
                if let start = source.baseAddress, !source.isEmpty {
                    target.baseAddress!.copyMemory(from: start, byteCount: source.count)
                }
            }
        }
    }

    /// Creates a text payload from the UTF-8 of `text`.
    public init(text: String) {
        var text = text
        self.init(count: text.utf8.count, isText: true) { target in
            text.withUTF8 { utf8 in
                if !utf8.isEmpty { target.baseAddress!.copyMemory(from: utf8.baseAddress!, byteCount: utf8.count) }
            }
        }
    }

    /// Calls `body` with the message bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(owner) { try body(UnsafeRawBufferPointer(start: base, count: count)) }
    }

    /// A copy of the message bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Whether the two payloads send the same bytes from the same place (one shared message).
    func sharesBytes(with other: Payload) -> Bool { base == other.base && count == other.count }
}

/// The transport's own block of payload bytes: one allocation holding `Payload.headroom` free
/// bytes, then the message (tail-allocated, so they do not move while the block lives).
final class PayloadBlock: ManagedBuffer<Void, UInt8> {
    /// A block with room for `messageBytes` after the headroom.
    static func make(messageBytes: Int) -> PayloadBlock {
        let made = create(minimumCapacity: Payload.headroom + max(messageBytes, 1)) { _ in }
        return unsafeDowncast(made, to: PayloadBlock.self)
    }

    /// The first message byte (after the headroom).
    var messageStart: UnsafeMutableRawPointer {
        withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) + Payload.headroom }
    }
}
