import CWebSockets

/// An immutable WebSocket message body, shareable across threads and sessions.
///
/// The bytes live in one heap block with `LWS_PRE` bytes of headroom in front, so the server
/// can hand the same block to `lws_write` for every session of a broadcast: server frames are
/// not masked, and lws only scribbles the frame header into the headroom (LWS.md §3.4). The
/// block is the payload's own, or one its `owner` keeps (`init(sharing:)`: bytes written
/// where they are sent, no copy). The headroom is written only on the service thread; the
/// message bytes are never modified after `init`, which is what makes the `@unchecked
/// Sendable` sound.
public final class Payload: @unchecked Sendable {
    /// True for a text message (opcode 1), false for binary (opcode 2).
    public let isText: Bool
    /// Number of message bytes (without headroom).
    public let count: Int
    /// Start of the message bytes; `headroom` writable bytes precede it.
    let base: UnsafeMutableRawPointer
    /// The block this payload allocated, freed with it; nil when `owner` keeps the bytes.
    private let block: UnsafeMutableRawPointer?
    /// What keeps shared bytes alive (`init(sharing:)`); only held, never used, so any object
    /// may be the owner of a `Sendable` payload.
    private let owner: AnyObject?

    /// Bytes of headroom lws needs before a buffer given to `lws_write`.
    public static let headroom = rs_lws_pre()

    /// Creates an uninitialised payload of `count` bytes that `fill` writes exactly once.
    init(count: Int, isText: Bool, fill: (UnsafeMutableRawBufferPointer) -> Void) {
        self.isText = isText
        self.count = count
        let block = UnsafeMutableRawPointer.allocate(byteCount: Payload.headroom + max(count, 1), alignment: 16)
        self.block = block
        owner = nil
        base = block + Payload.headroom
        fill(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    /// A payload of the `count` bytes at `start`, sent where they lie: `owner` keeps them
    /// alive, at least `Payload.headroom` bytes before `start` are free for the transport to
    /// write (on a service thread), and nothing writes the bytes or that headroom from now on.
    public init(sharing start: UnsafeMutableRawPointer, count: Int, isText: Bool, owner: AnyObject) {
        self.isText = isText
        self.count = count
        block = nil
        self.owner = owner
        base = start
    }

    /// Creates a payload by copying raw bytes.
    public convenience init(copying bytes: UnsafeRawBufferPointer, isText: Bool) {
        self.init(count: bytes.count, isText: isText) { target in
            if let source = bytes.baseAddress, !bytes.isEmpty {
                target.baseAddress!.copyMemory(from: source, byteCount: bytes.count)
            }
        }
    }

    /// Creates a payload by copying `bytes`.
    public convenience init(bytes: [UInt8], isText: Bool) {
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
    public convenience init(text: String) {
        var text = text
        self.init(count: text.utf8.count, isText: true) { target in
            text.withUTF8 { utf8 in
                if !utf8.isEmpty { target.baseAddress!.copyMemory(from: utf8.baseAddress!, byteCount: utf8.count) }
            }
        }
    }

    deinit { block?.deallocate() }

    /// Calls `body` with the message bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// A copy of the message bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}
