/// A connection, as the core knows it (the shell maps the transport's session ids onto these).
public struct ConnectionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var description: String { "\(rawValue)" }
}

/// A message encoded once: the same bytes are shared by every connection it is sent to.
public struct Frame: Sendable, Equatable {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// Who a connection is, fixed by its `hello`.
public enum Identity: Sendable, Hashable {
    case anonymous
    /// A token of the tokens file, by digest: its scopes are looked up again on every request,
    /// so a reload applies to open connections.
    case token(name: String, digest: [UInt8])
}
