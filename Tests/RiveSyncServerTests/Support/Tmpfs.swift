import Foundation
import Testing

/// A small tmpfs mounted for a test (CI runs as root), so a disk can really fill up.
final class Tmpfs {
    let path: String

    /// Mounts a tmpfs of `bytes` at a new temporary directory; the test fails without root.
    init(bytes: Int) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let status = Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path])
        try #require(status == 0, "this test needs to mount a tmpfs (root)")
    }

    /// Bytes still free on the file system.
    var freeBytes: Int {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return 0 }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }

    /// Fills the file system up to `leaving` free bytes with a file that `release` deletes.
    func fill(leaving: Int) throws {
        let size = max(0, freeBytes - leaving)
        try Data(count: size).write(to: URL(fileURLWithPath: path + "/filler"))
    }

    /// Frees what `fill` took.
    func release() throws { try FileManager.default.removeItem(atPath: path + "/filler") }

    deinit {
        _ = Self.run("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
