import Foundation
import RiveSyncJSON

/// The daemon's state directory: `daemon.json` (the epoch), `files/<number>/` (one journal per
/// loaded file) and `assets/` (uploaded content by SHA-256).
struct StateDirectory {
    let path: String
    let policy: DurabilityPolicy
    /// The epoch, kept across restarts so clients can resume from their cursors.
    let epoch: String

    /// Opens (or creates) the directory and reads or makes the epoch.
    init(path: String, policy: DurabilityPolicy) throws(PersistenceError) {
        self.path = path
        self.policy = policy
        try DurableFile.makeDirectory(path + "/files")
        try DurableFile.makeDirectory(path + "/assets")
        let daemonPath = path + "/daemon.json"
        if let bytes = DurableFile.read(daemonPath) {
            guard let json = try? JSONParser().parse(bytes), let epoch = json["epoch"]?.stringValue else {
                throw .corrupt(path: daemonPath, line: 1, reason: "no epoch")
            }
            self.epoch = epoch
        } else {
            epoch = "e-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            try DurableFile.replace(daemonPath, with: JSONValue.object([("epoch", .string(epoch))]).serialized())
        }
    }

    /// The journal directory of file number `number`.
    func fileDirectory(_ number: UInt64) -> String { path + "/files/\(number)" }

    /// Numbers of the files that have journals, in order.
    func fileNumbers() -> [UInt64] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path + "/files")) ?? []
        return names.compactMap(UInt64.init).sorted()
    }

    /// Stores uploaded content durably (before the upload is acknowledged).
    func storeAsset(id: String, mediaType: String, bytes: [UInt8]) throws(PersistenceError) {
        let base = path + "/assets/" + id.replacingOccurrences(of: ":", with: "-")
        guard DurableFile.read(base) == nil else { return }
        try DurableFile.replace(base + ".type", with: Array(mediaType.utf8))
        try DurableFile.replace(base, with: bytes)
    }

    /// Every stored asset: (id, media type, bytes).
    func assets() -> [(id: String, mediaType: String, bytes: [UInt8])] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path + "/assets")) ?? []
        return names.filter { $0.hasPrefix("sha256-") && !$0.contains(".") }.sorted().compactMap { name in
            guard let bytes = DurableFile.read(path + "/assets/" + name), let type = DurableFile.read(path + "/assets/" + name + ".type") else { return nil }
            return (name.replacingOccurrences(of: "sha256-", with: "sha256:"), String(decoding: type, as: UTF8.self), bytes)
        }
    }
}
