/// A path split once, at every `/`: what resolution, scopes and errors all read, so no one
/// splits or unescapes it again.
///
/// The usual path, one name with nothing to unescape (a property of the main slot), keeps no
/// arrays: its one segment and name are its text. A request's path is parsed on a transport
/// thread and freed on its worker's, so arrays made for it were also freed on another thread
/// than the one that made them (bench/README.md, "A set's parse, check and apply in the
/// model").
public struct ParsedPath: Sendable, Hashable {
    /// The path as written.
    public let text: String
    /// The segments and names of a path of more than one segment or with an escape; nil for
    /// one name written as it is (`text`).
    private let split: Split?

    private struct Split: Sendable {
        var segments: [Substring]
        var names: [String]?
    }

    public init(_ text: String) {
        self.text = text
        // A property of the main slot, the usual path: one segment, nothing to unescape.
        if !text.isEmpty, !PropertyPath.writesEscapeOrSlash(text) {
            split = nil
            return
        }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        var names: [String]? = []
        for segment in segments {
            guard !segment.isEmpty, let name = PropertyPath.unescape(String(segment)) else {
                names = nil
                break
            }
            names?.append(name)
        }
        split = Split(segments: segments, names: names)
    }

    /// Its segments as written (escaped; `""` gives one empty segment).
    public var segments: [Substring] { split?.segments ?? [text[...]] }

    /// The names the segments write (unescaped, `PropertyPath.escape`); nil when a segment is
    /// empty or a `~` escapes nothing (`invalidPath`).
    public var names: [String]? {
        guard let split else { return [text] }
        return split.names
    }

    /// How many segments it has (`segments.count`, without making the array).
    public var segmentCount: Int { split?.segments.count ?? 1 }

    /// Whether its names are valid (`names != nil`).
    public var hasNames: Bool { split.map { $0.names != nil } ?? true }

    /// The segment at `index` as written (`segments[index]`).
    public func segment(_ index: Int) -> Substring { split?.segments[index] ?? text[...] }

    /// The name at `index` (`names![index]`); only for a path that `hasNames`.
    public func name(_ index: Int) -> String { split?.names![index] ?? text }

    public static func == (a: ParsedPath, b: ParsedPath) -> Bool { a.text == b.text }

    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

extension ParsedPath: ExpressibleByStringLiteral, CustomStringConvertible {
    public init(stringLiteral text: String) { self.init(text) }

    /// The path as written.
    public var description: String { text }
}
