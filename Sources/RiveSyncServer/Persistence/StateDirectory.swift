import Foundation
import RiveSyncCore
import RiveSyncJSON
import RiveSyncTransport

/// The daemon's state directory: `daemon.json` (the epoch and the numbers of the files that
/// have journals), `files/<number>/` (one journal per loaded file) and `assets/` (uploaded
/// content by SHA-256).
///
/// The epoch says which history a client's cursor belongs to, so it lasts only as long as that
/// history: when a journal that `daemon.json` lists is gone, or a journal's log is missing or
/// empty, recovery starts a new epoch and every old cursor gets a snapshot instead of a resume.
final class StateDirectory: Sendable {
    let path: String
    let policy: DurabilityPolicy
    private let record: Locked<Record>

    private struct Record {
        var epoch: String
        /// nil for a `daemon.json` written before the list was kept.
        var files: [UInt64]?

        var json: JSONValue {
            .object([("epoch", .string(epoch)), ("files", .array((files ?? []).map { .number(Double($0)) }))])
        }
    }

    /// The epoch, kept across restarts so clients can resume from their cursors.
    var epoch: String { record.withLock { $0.epoch } }

    /// Opens (or creates) the directory and reads or makes the epoch.
    init(path: String, policy: DurabilityPolicy) throws(PersistenceError) {
        self.path = path
        self.policy = policy
        try DurableFile.makeStateDirectory(path)
        try DurableFile.makeDirectory(path + "/files")
        try DurableFile.makeDirectory(path + "/assets")
        let daemonPath = path + "/daemon.json"
        if let bytes = DurableFile.read(daemonPath) {
            let json: JSONValue
            do { json = try JSONParser().parse(bytes) } catch { throw .corrupt(path: daemonPath, line: 1, reason: "\(error)") }
            guard let epoch = json["epoch"]?.stringValue else { throw .corrupt(path: daemonPath, line: 1, reason: "no epoch") }
            let files = try json["files"]?.arrayValue.map { (list) throws(PersistenceError) in
                try list.map { (item) throws(PersistenceError) in
                    guard let number = item.intValue, number > 0 else {
                        throw .corrupt(path: daemonPath, line: 1, reason: "bad file number")
                    }
                    return UInt64(number)
                }
            }
            record = Locked(Record(epoch: epoch, files: files))
        } else {
            record = Locked(Record(epoch: Self.newEpoch(), files: []))
            try write(record.withLock { $0 })
        }
    }

    static func newEpoch() -> String { "e-" + String(UInt64.random(in: 0...UInt64.max), radix: 16) }

    private func write(_ record: Record) throws(PersistenceError) {
        try DurableFile.replace(path + "/daemon.json", with: record.json.serialized())
    }

    /// The journal directory of file number `number`.
    func fileDirectory(_ number: UInt64) -> String { path + "/files/\(number)" }

    /// Numbers of the files that have journals, in order. A `files/` directory that exists but
    /// cannot be read is an error, never "no journals" (which would count every journal as lost).
    func fileNumbers() throws(PersistenceError) -> [UInt64] {
        try entries(of: path + "/files").compactMap(UInt64.init).sorted()
    }

    /// The names in a directory of the state: none when it does not exist yet; `unusable`
    /// (with the system's reason) when it exists and cannot be listed.
    private func entries(of directory: String) throws(PersistenceError) -> [String] {
        guard let handle = opendir(directory) else {
            let code = errno
            if code == ENOENT { return [] }
            throw .unusable(path: directory, reason: "cannot be listed: \(String(cString: strerror(code)))")
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Reads every file's journal back, in file-number order. When history that clients may
    /// have seen is gone, a new epoch is written first and `renewed` says why.
    func recoverJournals() throws(PersistenceError) -> (journals: [(number: UInt64, journal: FileJournal.Recovered)], renewed: [String]) {
        let names = try entries(of: path + "/files")
        for unfinished in names where unfinished.hasSuffix(".new") {
            try? FileManager.default.removeItem(atPath: path + "/files/" + unfinished)  // a leftover; restore does not need it gone
        }
        let numbers = try fileNumbers()
        var journals: [(number: UInt64, journal: FileJournal.Recovered)] = []
        var lost: [String] = []
        for number in numbers {
            let recovered = try FileJournal.recover(directory: fileDirectory(number), policy: policy)
            if let reason = recovered.lostHistory { lost.append("files/\(number): \(reason)") }
            journals.append((number, recovered))
        }
        var current = record.withLock { $0 }
        for number in current.files ?? [] where !numbers.contains(number) {
            lost.append("files/\(number): the journal is missing")
        }
        if !lost.isEmpty { current.epoch = Self.newEpoch() }
        if !lost.isEmpty || current.files != numbers {
            current.files = numbers
            try write(current)
            record.withLock { $0 = current }
        }
        return (journals, lost)
    }

    /// Starts the journal of a newly loaded file and lists it in `daemon.json`.
    func createJournal(number: UInt64, header: JournalHeader) throws(PersistenceError) -> FileJournal {
        let journal = try FileJournal.create(directory: fileDirectory(number), header: header, policy: policy)
        try record.withLock { (record) throws(PersistenceError) in
            var updated = record
            updated.files = ((updated.files ?? []) + [number]).sorted()
            try write(updated)
            record = updated
        }
        return journal
    }

    /// Stores uploaded content durably (before the upload is acknowledged).
    func storeAsset(id: String, mediaType: String, bytes: [UInt8]) throws(PersistenceError) {
        let base = path + "/assets/" + id.replacingOccurrences(of: ":", with: "-")
        guard DurableFile.read(base) == nil else { return }
        try DurableFile.replace(base + ".type", with: Array(mediaType.utf8))
        try DurableFile.replace(base, with: bytes)
    }

    /// Every stored asset: (id, media type, bytes).
    func assets() throws(PersistenceError) -> [(id: String, mediaType: String, bytes: [UInt8])] {
        let names = try entries(of: path + "/assets")
        return names.filter { $0.hasPrefix("sha256-") && !$0.contains(".") }.sorted().compactMap { name in
            guard let bytes = DurableFile.read(path + "/assets/" + name), let type = DurableFile.read(path + "/assets/" + name + ".type")
            else { return nil }
            return (name.replacingOccurrences(of: "sha256-", with: "sha256:"), String(decoding: type, as: UTF8.self), bytes)
        }
    }
}
