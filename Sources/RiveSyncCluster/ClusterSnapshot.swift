import RiveSyncCore
import RiveSyncJSON
import RiveSyncRedis

/// A file as the cluster's snapshots hold it (protocol/CLUSTER.md §2.7): its number and
/// header, its latest snapshot, and the stream id of the last entry that snapshot includes
/// (the snapshot's own `upTo` is unused: the stream id is its position).
public struct ClusterFileSnapshot: Sendable {
    public var number: UInt64
    public var header: JournalHeader
    public var snapshot: JournalSnapshot
    public var upTo: RedisStreamID

    /// The `files` hash value of a file: its number and header.
    static func fileDocument(number: UInt64, header: JournalHeader) -> JSONValue {
        .object([("number", .number(Double(number))), ("header", header.json)])
    }

    /// Every snapshotted file, by file number (`HGETALL` of the snapshots and files keys).
    static func read(_ connection: RedisConnection, keys: ClusterKeys) throws(RedisError) -> [ClusterFileSnapshot] {
        let snapshots = try pairs(try connection.command(["HGETALL", RedisArgument(keys.snapshots)]))
        let files = Dictionary(try pairs(try connection.command(["HGETALL", RedisArgument(keys.files)])), uniquingKeysWith: { a, _ in a })
        var read: [ClusterFileSnapshot] = []
        for (name, value) in snapshots {
            guard let newline = value.firstIndex(of: UInt8(ascii: "\n")), let file = files[name] else {
                throw .unexpectedReply("the snapshot of '\(name)' has no id or no file header")
            }
            do {
                let upTo = try RedisStreamID(String(decoding: value[..<newline], as: UTF8.self))
                let snapshot = try JournalSnapshot(json: try JSONParser().parse(value[(newline + 1)...]))
                let document = try JSONParser().parse(file)
                guard let number = document["number"]?.intValue, number > 0, let header = document["header"] else {
                    throw JournalCodec.Invalid(description: "no number or header")
                }
                read.append(
                    ClusterFileSnapshot(number: UInt64(number), header: try JournalHeader(json: header), snapshot: snapshot, upTo: upTo))
            } catch {
                throw .unexpectedReply("the snapshot of '\(name)': \(error)")
            }
        }
        return read.sorted { $0.number < $1.number }
    }

    /// The field/value pairs of an `HGETALL` reply (values as bytes).
    private static func pairs(_ reply: RedisReply) throws(RedisError) -> [(String, [UInt8])] {
        let flat = try reply.array() ?? []
        var pairs: [(String, [UInt8])] = []
        var index = 0
        while index + 1 < flat.count {
            guard let name = try flat[index].string(), let value = try flat[index + 1].bytes() else {
                throw .unexpectedReply("hash field \(flat[index])")
            }
            pairs.append((name, value))
            index += 2
        }
        return pairs
    }
}
