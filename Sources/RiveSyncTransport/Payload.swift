import CWebSockets

/// An immutable WebSocket message body, shareable across threads and sessions.
///
/// The bytes lie in one heap block with `LWS_PRE` bytes of headroom in front, so the server
/// can hand the same block to `lws_write` for every session of a broadcast: server frames are
/// not masked, and lws only scribbles the frame header into the headroom (LWS.md §3.4). The
/// payload is a value that keeps its block alive: a `PayloadBlock` of its own (the copying
/// initializers), or the block another module wrote the bytes into (`init(sharing:)`, no copy
/// and no allocation of the transport's). The headroom is written only on the service thread;
/// the message bytes are never modified after `init`, which is what makes the `@unchecked
/// Sendable` sound.
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

    /// Bytes of headroom lws needs before a buffer given to `lws_write`.
    public static let headroom = rs_lws_pre()

    /// Creates an uninitialised payload of `count` bytes that `fill` writes exactly once.
    init(count: Int, isText: Bool, fill: (UnsafeMutableRawBufferPointer) -> Void) {
        let block = PayloadBlock.make(messageBytes: count)
        self.init(sharing: block.messageStart, count: count, isText: isText, owner: block)
        fill(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    /// A payload of the `count` bytes at `start`, sent where they lie: `owner` keeps them
    /// alive, at least `Payload.headroom` bytes before `start` are free for the transport to
    /// write (on a service thread), and nothing writes the bytes or that headroom from now on.
    public init(sharing start: UnsafeMutableRawPointer, count: Int, isText: Bool, owner: AnyObject) {
        self.count = count
        base = start
        self.owner = owner
        self.isText = isText
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
