/// A stream entry id, `<milliseconds>-<sequence>`, ordered as Redis orders them.
public struct RedisStreamID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var milliseconds: UInt64
    public var sequence: UInt64

    /// The id before every entry (`0-0`): read a stream from its start.
    public static let start = RedisStreamID(milliseconds: 0, sequence: 0)

    public init(milliseconds: UInt64, sequence: UInt64) {
        self.milliseconds = milliseconds
        self.sequence = sequence
    }

    /// Parses `<ms>-<seq>` as Redis writes it.
    public init(_ text: String) throws(RedisError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let milliseconds = UInt64(parts[0]), let sequence = UInt64(parts[1]) else {
            throw .unexpectedReply("stream id '\(text)'")
        }
        self.init(milliseconds: milliseconds, sequence: sequence)
    }

    public var description: String { "\(milliseconds)-\(sequence)" }
    public var argument: RedisArgument { RedisArgument(description) }

    public static func < (a: RedisStreamID, b: RedisStreamID) -> Bool {
        (a.milliseconds, a.sequence) < (b.milliseconds, b.sequence)
    }
}

/// One entry of a Redis stream: its id and its field/value pairs, in the order written.
public struct RedisStreamEntry: Sendable, Equatable {
    public var id: RedisStreamID
    public var fields: [(name: [UInt8], value: [UInt8])]

    public init(id: RedisStreamID, fields: [(name: [UInt8], value: [UInt8])]) {
        self.id = id
        self.fields = fields
    }

    /// The value of the first field called `name`.
    public func value(_ name: String) -> [UInt8]? {
        let key = Array(name.utf8)
        return fields.first { $0.name == key }?.value
    }

    public static func == (a: RedisStreamEntry, b: RedisStreamEntry) -> Bool {
        a.id == b.id && a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// The entries of an `XRANGE` reply (an array of `[id, [field, value, …]]`).
    public static func entries(_ reply: RedisReply) throws(RedisError) -> [RedisStreamEntry] {
        guard let items = try reply.array() else { return [] }
        var entries: [RedisStreamEntry] = []
        entries.reserveCapacity(items.count)
        for item in items {
            guard let pair = try item.array(), pair.count == 2, let id = try pair[0].string(), let flat = try pair[1].array(),
                flat.count % 2 == 0
            else { throw .unexpectedReply("stream entry \(item)") }
            var fields: [(name: [UInt8], value: [UInt8])] = []
            var index = 0
            while index < flat.count {
                guard let name = try flat[index].bytes(), let value = try flat[index + 1].bytes() else {
                    throw .unexpectedReply("stream field \(flat[index])")
                }
                fields.append((name, value))
                index += 2
            }
            entries.append(RedisStreamEntry(id: try RedisStreamID(id), fields: fields))
        }
        return entries
    }

    /// The entries of an `XREAD` reply for one stream (`[[key, entries]]`; `.null` after a
    /// `BLOCK` that timed out gives none).
    public static func readReply(_ reply: RedisReply, key: String) throws(RedisError) -> [RedisStreamEntry] {
        guard let streams = try reply.array() else { return [] }
        var entries: [RedisStreamEntry] = []
        for stream in streams {
            guard let pair = try stream.array(), pair.count == 2, try pair[0].string() == key else {
                throw .unexpectedReply("XREAD stream \(stream)")
            }
            entries += try Self.entries(pair[1])
        }
        return entries
    }
}
