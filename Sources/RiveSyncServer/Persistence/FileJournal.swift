import Foundation
import RiveSyncCore
import RiveSyncJSON

/// The durable history of one loaded file: `file.json` (its name and schema, written once),
/// `snapshot.json` (its whole state at some record), and `log` (records after that, one per
/// line as `<crc32 hex> <json>`). Owned by the file's worker; not thread-safe.
///
/// A log starts with a segment line, `{"t":"log","after":N}`: the record number its first
/// record follows. So a missing or emptied log, a missing snapshot and records out of order
/// are told apart from a log that simply has nothing yet (see `recover`). A failed append
/// leaves the log exactly as it was: the partial line is cut off, and until that succeeds the
/// journal refuses every write.
final class FileJournal {
    let directory: String
    let policy: DurabilityPolicy
    private var fd: Int32
    /// The sequence number of the last record written.
    private(set) var sequence: UInt64
    private(set) var recordsSinceSnapshot = 0
    private var unsynced = false
    /// The log's length up to the end of its last complete record.
    private var goodLength: off_t
    /// Set when a failed append could not be cut off: nothing is written until it is.
    private var damaged = false
    /// Where the last appended record starts, until the next snapshot (for `retractLast`).
    private var lastRecordStart: off_t?

    /// The `format` of journals with segment lines; `file.json` without it is the first format
    /// (a log without a segment line), which is still read.
    static let format = JournalRecord.format

    private init(directory: String, policy: DurabilityPolicy, fd: Int32, sequence: UInt64, goodLength: off_t) {
        self.directory = directory
        self.policy = policy
        self.fd = fd
        self.sequence = sequence
        self.goodLength = goodLength
    }

    deinit { close(fd) }

    var logPath: String { directory + "/log" }

    /// Starts the journal of a newly loaded file. The directory is built under a temporary
    /// name and renamed into place, so a crash never leaves a half-made journal behind.
    static func create(directory: String, header: JournalHeader, policy: DurabilityPolicy) throws(PersistenceError) -> FileJournal {
        let building = directory + ".new"
        // A leftover of a crash mid-create, usually absent; one that cannot be removed makes the
        // next line fail with its reason.
        try? FileManager.default.removeItem(atPath: building)
        try DurableFile.makeDirectory(building)
        try DurableFile.replace(building + "/file.json", with: header.json.serialized())
        try DurableFile.replace(building + "/log", with: segmentLine(after: 0))
        guard rename(building, directory) == 0 else { throw .writeFailed(path: directory, errno: errno) }
        try DurableFile.syncDirectory(of: directory)
        let fd = try openLog(directory + "/log")
        return FileJournal(directory: directory, policy: policy, fd: fd, sequence: 0, goodLength: off_t(segmentLine(after: 0).count))
    }

    /// What recovery found: the header, the snapshot (if any), and the records after it.
    struct Recovered {
        var journal: FileJournal
        var header: JournalHeader
        var snapshot: JournalSnapshot?
        /// Records after the snapshot, with their line numbers in the log.
        var records: [(line: Int, record: JournalRecord)]
        /// Bytes of a torn last record that were cut off (0 when the log was clean).
        var tornBytes: Int
        /// Why history that clients may have seen is gone (the log is missing or empty), or
        /// nil. What is left is restored; the daemon must start a new epoch.
        var lostHistory: String?
    }

    /// Reads a file's journal back. An incomplete last line (a torn write) is cut off; a
    /// complete line that does not check out, records out of order, or a log that continues a
    /// snapshot that is not there throw `corrupt`.
    static func recover(directory: String, policy: DurabilityPolicy) throws(PersistenceError) -> Recovered {
        let headerPath = directory + "/file.json"
        guard let headerBytes = DurableFile.read(headerPath) else { throw .corrupt(path: headerPath, line: 1, reason: "missing") }
        let header: JournalHeader
        do { header = try JournalHeader(json: try JSONParser(maxDepth: 512, maxBytes: 1 << 30).parse(headerBytes)) } catch {
            throw .corrupt(path: headerPath, line: 1, reason: "\(error)")
        }
        let segmented = header.format >= 2
        var snapshot: JournalSnapshot?
        let snapshotPath = directory + "/snapshot.json"
        if let bytes = DurableFile.read(snapshotPath) {
            do { snapshot = try JournalSnapshot(json: try parseLine(bytes[...])) } catch {
                throw .corrupt(path: snapshotPath, line: 1, reason: "\(error)")
            }
        }
        let upTo = snapshot?.upTo ?? 0
        let logPath = directory + "/log"
        let existing = DurableFile.read(logPath)
        let bytes = existing ?? []
        var scan = LogScan(path: logPath, upTo: upTo, hasSnapshot: snapshot != nil, file: header.name, format: header.format)
        var start = 0
        while start < bytes.count, let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let record: JSONValue
            do { record = try parseLine(bytes[start..<newline]) } catch {
                throw .corrupt(path: logPath, line: scan.line + 1, reason: "\(error)")
            }
            try scan.take(record)
            start = newline + 1
        }
        let tornBytes = bytes.count - start
        var lostHistory: String?
        if segmented, scan.segmentAfter == nil {
            guard scan.line == 0, tornBytes == 0 else {
                throw .corrupt(path: logPath, line: 1, reason: "the log does not start with its segment line")
            }
            lostHistory = existing == nil ? "the log is missing" : "the log is empty"
        }
        let fd = try openLog(logPath)
        if tornBytes > 0 {
            guard ftruncate(fd, off_t(start)) == 0, fsync(fd) == 0 else { throw .writeFailed(path: logPath, errno: errno) }
        }
        var goodLength = off_t(start)
        if lostHistory != nil {
            // Start the log again after the snapshot, so the next restart finds a segment line.
            let line = segmentLine(after: upTo)
            try DurableFile.writeAll(fd, line, path: logPath)
            guard fdatasync(fd) == 0 else { throw .writeFailed(path: logPath, errno: errno) }
            goodLength = off_t(line.count)
        }
        let journal = FileJournal(
            directory: directory, policy: policy, fd: fd, sequence: max(upTo, scan.lastSequence), goodLength: goodLength)
        journal.recordsSinceSnapshot = scan.records.count
        return Recovered(
            journal: journal, header: header, snapshot: snapshot, records: scan.records, tornBytes: tornBytes, lostHistory: lostHistory)
    }

    /// The checks recovery makes line by line: one segment line first, then records numbered
    /// one after another from the segment's start, the first one kept right after the
    /// snapshot.
    private struct LogScan {
        let path: String
        let upTo: UInt64
        let hasSnapshot: Bool
        var line = 0
        var segmentAfter: UInt64?
        var lastSequence: UInt64 = 0
        let file: String
        let format: Int
        var records: [(line: Int, record: JournalRecord)] = []

        init(path: String, upTo: UInt64, hasSnapshot: Bool, file: String, format: Int) {
            self.path = path
            self.upTo = upTo
            self.hasSnapshot = hasSnapshot
            self.file = file
            self.format = format
        }

        mutating func take(_ record: JSONValue) throws(PersistenceError) {
            line += 1
            if record["t"]?.stringValue == "log" {
                guard line == 1, let after = record["after"]?.intValue, after >= 0 else {
                    throw .corrupt(path: path, line: line, reason: "a segment line that is not the log's first")
                }
                segmentAfter = UInt64(after)
                lastSequence = UInt64(after)
                guard UInt64(after) <= upTo else {
                    throw .corrupt(
                        path: path, line: line,
                        reason: hasSnapshot
                            ? "the log continues after record \(after) but snapshot.json ends at record \(upTo)"
                            : "snapshot.json is missing: the log continues after record \(after)")
                }
                return
            }
            guard let number = record["s"]?.intValue, number > 0 else {
                throw .corrupt(path: path, line: line, reason: "a record without its number")
            }
            let sequence = UInt64(number)
            if lastSequence == 0, segmentAfter == nil {
                // The first format: no segment line, so the first record sets the start.
                lastSequence = sequence - 1
                guard sequence <= upTo + 1 else {
                    throw .corrupt(
                        path: path, line: line,
                        reason: hasSnapshot
                            ? "records \(upTo + 1)...\(sequence - 1) after snapshot.json are missing"
                            : "snapshot.json is missing: the log starts at record \(sequence)")
                }
            }
            guard sequence == lastSequence + 1 else {
                throw .corrupt(
                    path: path, line: line,
                    reason: "record \(sequence) where record \(lastSequence + 1) belongs (duplicated, reordered or missing records)")
            }
            lastSequence = sequence
            guard sequence > upTo else { return }
            do { records.append((line, try JournalRecord(json: record, file: file, format: format))) } catch {
                throw .corrupt(path: path, line: line, reason: "\(error)")
            }
        }
    }

    /// Appends a record (`s` is added). With policy `always` it is on disk when this returns;
    /// with `everysec` it is in the kernel and `syncIfNeeded` makes it durable. When it throws,
    /// the log is as it was before the call (or the journal refuses writes until it can be).
    func append(_ record: JournalRecord) throws(PersistenceError) {
        if damaged { try cutBack() }
        let next = sequence + 1
        let line = Self.line(.object([("s", .number(Double(next)))] + record.members))
        do throws(PersistenceError) {
            try DurableFile.writeAll(fd, line, path: logPath)
            if policy == .always, fdatasync(fd) != 0 { throw PersistenceError.writeFailed(path: logPath, errno: errno) }
        } catch {
            damaged = true
            // The write's own error is the one to report; a failed cut-back leaves the journal
            // marked damaged, which refuses every later append.
            try? cutBack()
            throw error
        }
        if policy != .always { unsynced = true }
        lastRecordStart = goodLength
        goodLength += off_t(line.count)
        sequence = next
        recordsSinceSnapshot += 1
    }

    /// Takes back the record `append` just wrote, for a change that could not be made after
    /// all. If the log cannot be cut, the journal refuses writes until it can.
    func retractLast() throws(PersistenceError) {
        guard let start = lastRecordStart else { return }
        lastRecordStart = nil
        goodLength = start
        sequence -= 1
        recordsSinceSnapshot -= 1
        damaged = true
        try cutBack()
    }

    /// Cuts the log back to its last complete record and makes that durable.
    private func cutBack() throws(PersistenceError) {
        guard ftruncate(fd, goodLength) == 0, fsync(fd) == 0 else { throw .writeFailed(path: logPath, errno: errno) }
        damaged = false
    }

    /// Fsyncs records written since the last sync (policy `everysec`).
    func syncIfNeeded() throws(PersistenceError) {
        guard unsynced else { return }
        guard fdatasync(fd) == 0 else { throw .writeFailed(path: logPath, errno: errno) }
        unsynced = false
    }

    /// Writes a snapshot of the state after the last record, then starts a new log after it.
    func writeSnapshot(state: JSONValue, targets: [JournalSnapshot.Target]) throws(PersistenceError) {
        if damaged { try cutBack() }
        try syncIfNeeded()
        let snapshot = JournalSnapshot(upTo: sequence, state: state, targets: targets)
        try DurableFile.replace(directory + "/snapshot.json", with: Self.line(snapshot.json))
        let fresh = logPath + ".new"
        let segment = Self.segmentLine(after: sequence)
        let newFD = open(fresh, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard newFD >= 0 else { throw .writeFailed(path: fresh, errno: errno) }
        do throws(PersistenceError) {
            try DurableFile.writeAll(newFD, segment, path: fresh)
            guard fsync(newFD) == 0 else { throw PersistenceError.writeFailed(path: fresh, errno: errno) }
            guard rename(fresh, logPath) == 0 else { throw PersistenceError.writeFailed(path: logPath, errno: errno) }
        } catch {
            close(newFD)
            unlink(fresh)
            throw error
        }
        close(fd)
        fd = newFD
        goodLength = off_t(segment.count)
        lastRecordStart = nil
        recordsSinceSnapshot = 0
        try DurableFile.syncDirectory(of: logPath)
    }

    /// Rewrites `file.json` in the current format (after a journal of the first format was
    /// restored and compacted into a snapshot and a segmented log).
    func upgradeHeader(_ header: JournalHeader) throws(PersistenceError) {
        guard header.format != Self.format else { return }
        var upgraded = header
        upgraded.format = Self.format
        try DurableFile.replace(directory + "/file.json", with: upgraded.json.serialized())
    }

    private static func openLog(_ path: String) throws(PersistenceError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .writeFailed(path: path, errno: errno) }
        return fd
    }

    static func segmentLine(after sequence: UInt64) -> [UInt8] {
        line(.object([("t", "log"), ("after", .number(Double(sequence)))]))
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
