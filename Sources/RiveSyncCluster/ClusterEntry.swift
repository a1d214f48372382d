import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncRedis

/// One entry of the cluster's log stream (protocol/CLUSTER.md §2.3): a record of a file, a file
/// loaded (`loadFile`), or a node's `join` (it took a new fencing token), with who proposed it.
public struct ClusterEntry: Sendable, Equatable {
    /// The entry format (`v`): 3 for a record that needs journal format 5 (a creation that makes
    /// blank instances as Rive does, a state machine made with empty slots, an advance that
    /// sets or fires state machine inputs), which a node of an earlier format must refuse
    /// rather than replay differently; 2 for an advance that ran its state machine for some
    /// time (its body has `elapsed`, journal format 4), which a node of format 1 must refuse
    /// rather than replay as an untimed advance; 1 for every other entry, as before. All are
    /// read.
    public static let format = 3
    /// The format of entries with a timed advance.
    static let timedFormat = 2
    /// The format of entries that carry nothing a node of the first format cannot replay.
    static let untimedFormat = 1

    /// The `v` an entry is written with: the earliest format whose nodes replay it exactly.
    var writtenFormat: Int {
        guard case .record(_, let record) = kind else { return Self.untimedFormat }
        switch record.earliestFormat {
        case JournalRecord.format...: return Self.format
        case JournalRecord.timedAdvances: return Self.timedFormat
        default: return Self.untimedFormat
        }
    }

    public enum Kind: Sendable, Equatable {
        /// A change of `file` (its body is the journal's own JSON of the record).
        case record(file: String, JournalRecord)
        /// A file loaded at run time: its `file.json` header (`JournalHeader`: name and schema).
        case file(name: String, header: JSONValue)
        /// An asset uploaded to a node (its reference: id, size, media type).
        case asset(AssetReference)
        /// The proposing node appends nothing more with an earlier token.
        case join
    }

    public var kind: Kind
    /// The proposing node's name (`n`), fencing token (`g`) and ticket (`t`, 0 for a join).
    public var node: String
    public var token: String
    public var ticket: UInt64

    public init(kind: Kind, node: String, token: String, ticket: UInt64) {
        self.kind = kind
        self.node = node
        self.token = token
        self.ticket = ticket
    }

    /// Why an entry cannot be read: a log that other software wrote to, or a newer format.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The entry's field/value pairs, in the order they are written.
    public var fields: [RedisArgument] {
        var fields: [RedisArgument] = ["v", RedisArgument(writtenFormat)]
        switch kind {
        case .record(let file, let record):
            fields += ["k", "record", "f", RedisArgument(file), "b", RedisArgument(bytes: JSONValue.object(record.members).serialized())]
        case .file(let name, let header):
            fields += ["k", "file", "f", RedisArgument(name), "b", RedisArgument(bytes: header.serialized())]
        case .asset(let asset):
            fields += ["k", "asset", "f", RedisArgument(asset.id)] + Self.assetValue(asset)
        case .join:
            fields += ["k", "join"]
        }
        return fields + ["n", RedisArgument(node), "g", RedisArgument(token), "t", RedisArgument(ticket)]
    }

    /// Reads a stream entry strictly: every field present, the record through `JournalCodec`.
    public init(_ entry: RedisStreamEntry) throws(Invalid) {
        func text(_ name: String) throws(Invalid) -> String {
            guard let bytes = entry.value(name) else { throw Invalid(description: "entry \(entry.id): no field '\(name)'") }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let format = Int(try text("v")), (Self.untimedFormat...Self.format).contains(format) else {
            throw Invalid(description: "entry \(entry.id): format \(try text("v"))")
        }
        node = try text("n")
        token = try text("g")
        guard let ticket = UInt64(try text("t")) else { throw Invalid(description: "entry \(entry.id): ticket \(try text("t"))") }
        self.ticket = ticket
        switch try text("k") {
        case "join":
            kind = .join
        case "record":
            let file = try text("f")
            guard let body = entry.value("b") else { throw Invalid(description: "entry \(entry.id): no field 'b'") }
            do {
                let json = try JSONParser().parse(body)
                kind = .record(file: file, try JournalRecord(json: json, file: file, format: JournalRecord.format))
            } catch {
                throw Invalid(description: "entry \(entry.id): record of '\(file)': \(error)")
            }
        case "file":
            let name = try text("f")
            guard let body = entry.value("b") else { throw Invalid(description: "entry \(entry.id): no field 'b'") }
            do { kind = .file(name: name, header: try JSONParser().parse(body)) } catch {
                throw Invalid(description: "entry \(entry.id): file '\(name)': \(error)")
            }
        case "asset":
            let id = try text("f")
            guard let bytes = Int(try text("s")), bytes >= 0 else { throw Invalid(description: "entry \(entry.id): asset size") }
            kind = .asset(AssetReference(id: id, byteCount: bytes, mediaType: try text("m")))
        case let other:
            throw Invalid(description: "entry \(entry.id): kind '\(other)'")
        }
    }
}

extension ClusterEntry {
    /// An asset's size and media type as an entry's field/value pairs.
    static func assetValue(_ asset: AssetReference) -> [RedisArgument] {
        ["s", RedisArgument(asset.byteCount), "m", RedisArgument(asset.mediaType)]
    }

    /// The assets of an `HGETALL <prefix>:assets` reply (id → `<size> <media type>`).
    static func assets(_ reply: RedisReply) throws(RedisError) -> [AssetReference] {
        let flat = try reply.array() ?? []
        var assets: [AssetReference] = []
        var index = 0
        while index + 1 < flat.count {
            guard let id = try flat[index].string(), let value = try flat[index + 1].string(),
                let space = value.firstIndex(of: " "), let bytes = Int(value[..<space])
            else { throw .unexpectedReply("asset entry \(flat[index])") }
            assets.append(AssetReference(id: id, byteCount: bytes, mediaType: String(value[value.index(after: space)...])))
            index += 2
        }
        return assets.sorted { $0.id < $1.id }
    }
}
