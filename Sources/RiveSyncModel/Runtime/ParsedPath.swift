/// A path split once, at every `/`: what resolution, scopes and errors all read, so no one
/// splits or unescapes it again.
public struct ParsedPath: Sendable, Hashable {
    /// The path as written.
    public let text: String
    /// Its segments as written (escaped; `""` gives one empty segment).
    public let segments: [Substring]
    /// The names the segments write (unescaped, `PropertyPath.escape`); nil when a segment is
    /// empty or a `~` escapes nothing (`invalidPath`).
    public let names: [String]?

    public init(_ text: String) {
        self.text = text
        // A property of the main slot, the usual path: one segment, nothing to unescape.
        if !text.isEmpty, !text.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "~") }) {
            segments = [text[...]]
            names = [text]
            return
        }
        segments = text.split(separator: "/", omittingEmptySubsequences: false)
        var names: [String] = []
        for segment in segments {
            guard !segment.isEmpty, let name = PropertyPath.unescape(String(segment)) else {
                self.names = nil
                return
            }
            names.append(name)
        }
        self.names = names
    }
}

extension ParsedPath: ExpressibleByStringLiteral, CustomStringConvertible {
    public init(stringLiteral text: String) { self.init(text) }

    /// The path as written.
    public var description: String { text }
}
