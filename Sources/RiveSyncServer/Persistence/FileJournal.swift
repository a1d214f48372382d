import Foundation
import RiveSyncJSON

/// The durable history of one loaded file: `file.json` (its name and schema, written once),
/// `snapshot.json` (its whole state at some record), and `log` (records after that, one per
/// line as `<crc32 hex> <json>`). Owned by the file's worker; not thread-safe.
final class FileJournal {
    let directory: String
    let policy: DurabilityPolicy
    private var fd: Int32
    /// The sequence number of the last record written.
    private(set) var sequence: UInt64
    private(set) var recordsSinceSnapshot = 0
    private var unsynced = false

    private init(directory: String, policy: DurabilityPolicy, fd: Int32, sequence: UInt64) {
        self.directory = directory
        self.policy = policy
        self.fd = fd
        self.sequence = sequence
    }

    deinit { close(fd) }

    var logPath: String { directory + "/log" }

    /// Starts the journal of a newly loaded file.
    static func create(directory: String, header: JSONValue, policy: DurabilityPolicy) throws(PersistenceError) -> FileJournal {
        try DurableFile.makeDirectory(directory)
        try DurableFile.replace(directory + "/file.json", with: header.serialized())
        let fd = try openLog(directory + "/log")
        return FileJournal(directory: directory, policy: policy, fd: fd, sequence: 0)
    }

    /// What recovery found: the header, the snapshot (if any), and the records after it.
    struct Recovered {
        var journal: FileJournal
        var header: JSONValue
        var snapshot: JSONValue?
        var records: [JSONValue]
        /// Bytes of a torn last record that were cut off (0 when the log was clean).
        var tornBytes: Int
    }

    /// Reads a file's journal back. A torn last record is cut off; damage anywhere else
    /// throws `corrupt`.
    static func recover(directory: String, policy: DurabilityPolicy) throws(PersistenceError) -> Recovered {
        let headerPath = directory + "/file.json"
        guard let headerBytes = DurableFile.read(headerPath), let header = try? JSONParser(maxDepth: 512, maxBytes: 1 << 30).parse(headerBytes)
        else { throw .corrupt(path: headerPath, line: 1, reason: "unreadable header") }
        var snapshot: JSONValue?
        let snapshotPath = directory + "/snapshot.json"
        if let bytes = DurableFile.read(snapshotPath) {
            guard let parsed = try? parseLine(bytes[...]) else { throw .corrupt(path: snapshotPath, line: 1, reason: "bad checksum or JSON") }
            snapshot = parsed
        }
        let upTo = UInt64(snapshot?["upTo"]?.intValue ?? 0)
        let logPath = directory + "/log"
        let bytes = DurableFile.read(logPath) ?? []
        var records: [JSONValue] = []
        var start = 0
        var line = 0
        var validLength = 0
        var badLine: (line: Int, reason: String)?
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            line += 1
            if let bad = badLine { throw .corrupt(path: logPath, line: bad.line, reason: bad.reason) }
            do {
                let record = try parseLine(bytes[start..<newline])
                if UInt64(record["s"]?.intValue ?? 0) > upTo { records.append(record) }
                validLength = newline + 1
            } catch {
                badLine = (line, "\(error)")
            }
            start = newline + 1
        }
        let fd = try openLog(logPath)
        let journal = FileJournal(directory: directory, policy: policy, fd: fd, sequence: 0)
        let tornBytes = bytes.count - validLength
        if tornBytes > 0 {
            guard ftruncate(fd, off_t(validLength)) == 0, fsync(fd) == 0 else { throw .writeFailed(path: logPath, errno: errno) }
        }
        journal.sequence = max(upTo, UInt64(records.last?["s"]?.intValue ?? 0))
        journal.recordsSinceSnapshot = records.count
        return Recovered(journal: journal, header: header, snapshot: snapshot, records: records, tornBytes: tornBytes)
    }

    /// Appends a record (`s` is added). With policy `always` it is on disk when this returns;
    /// with `everysec` it is in the kernel and `syncIfNeeded` makes it durable.
    func append(_ record: JSONValue) throws(PersistenceError) {
        guard case .object(let members) = record else { return }
        let next = sequence + 1
        let line = Self.line(.object([("s", .number(Double(next)))] + members))
        try DurableFile.writeAll(fd, line, path: logPath)
        if policy == .always {
            guard fdatasync(fd) == 0 else { throw .writeFailed(path: logPath, errno: errno) }
        } else {
            unsynced = true
        }
        sequence = next
        recordsSinceSnapshot += 1
    }

    /// Fsyncs records written since the last sync (policy `everysec`).
    func syncIfNeeded() throws(PersistenceError) {
        guard unsynced else { return }
        guard fdatasync(fd) == 0 else { throw .writeFailed(path: logPath, errno: errno) }
        unsynced = false
    }

    /// Writes a snapshot of the state after the last record, then starts an empty log.
    func writeSnapshot(_ state: JSONValue) throws(PersistenceError) {
        guard case .object(let members) = state else { return }
        try syncIfNeeded()
        try DurableFile.replace(directory + "/snapshot.json", with: Self.line(.object([("upTo", .number(Double(sequence)))] + members)))
        let fresh = logPath + ".new"
        let newFD = open(fresh, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard newFD >= 0 else { throw .writeFailed(path: fresh, errno: errno) }
        guard fsync(newFD) == 0, rename(fresh, logPath) == 0 else {
            close(newFD)
            throw .writeFailed(path: logPath, errno: errno)
        }
        close(fd)
        fd = newFD
        recordsSinceSnapshot = 0
        try DurableFile.syncDirectory(of: logPath)
    }

    private static func openLog(_ path: String) throws(PersistenceError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .writeFailed(path: path, errno: errno) }
        return fd
    }

    static func line(_ json: JSONValue) -> [UInt8] {
        let body = json.serialized()
        let crc = String(CRC32.checksum(body), radix: 16)
        return Array((String(repeating: "0", count: 8 - crc.count) + crc + " ").utf8) + body + [UInt8(ascii: "\n")]
    }

    struct BadLine: Error, CustomStringConvertible {
        var description: String
    }

    static func parseLine(_ bytes: ArraySlice<UInt8>) throws -> JSONValue {
        var bytes = bytes
        if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
        guard bytes.count > 9, bytes[bytes.startIndex + 8] == UInt8(ascii: " "),
            let crc = UInt32(String(decoding: bytes.prefix(8), as: UTF8.self), radix: 16)
        else { throw BadLine(description: "no checksum") }
        let body = bytes.dropFirst(9)
        guard CRC32.checksum(body) == crc else { throw BadLine(description: "checksum mismatch") }
        return try JSONParser(maxDepth: 512, maxBytes: 1 << 30).parse(body)
    }
}
