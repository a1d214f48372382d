import RiveSyncJSON
import RiveSyncProtocol

/// A connection, as the core knows it (the shell maps the transport's session ids onto these).
public struct ConnectionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var description: String { "\(rawValue)" }
}

/// A message encoded once: the same bytes are shared by every connection it is sent to, and
/// with the shell's headroom in front of them (`WorkerSettings.frameHeadroom`,
/// `ConnectionSettings.frameHeadroom`) the transport sends them where they were written.
public struct Frame: Sendable, Equatable {
    public let storage: HeadroomBytes

    /// `message`'s bytes after `headroom` free bytes.
    public init(_ message: ServerMessage, headroom: Int) { storage = message.serialized(headroom: headroom) }

    /// Bytes written with their headroom (`ServerMessage.batchBytes`, `ackBytes`).
    public init(written storage: HeadroomBytes) { self.storage = storage }

    /// `json`'s bytes after `headroom` free bytes (a batch of a file's snapshot).
    public init(_ json: JSONValue, headroom: Int) {
        var storage = HeadroomBytes(headroom: headroom)
        json.write(into: &storage)
        self.storage = storage
    }

    /// A copy of `bytes`, without headroom.
    public init(bytes: [UInt8]) { storage = HeadroomBytes(copying: bytes, headroom: 0) }

    /// A copy of the message's bytes.
    public var bytes: [UInt8] { storage.bytes }

    /// Number of the message's bytes.
    public var count: Int { storage.count }

    /// Frames are equal when their bytes are (whatever their headroom).
    public static func == (a: Frame, b: Frame) -> Bool {
        a.storage.withUnsafeBytes { a in b.storage.withUnsafeBytes { b in a.elementsEqual(b) } }
    }
}

/// Who a connection is, fixed by its `hello`.
public enum Identity: Sendable, Hashable {
    case anonymous
    /// A token of the tokens file, by digest: its scopes are looked up again after every
    /// reload (at the connection's next request), so a reload applies to open connections.
    case token(name: String, digest: [UInt8])
}
