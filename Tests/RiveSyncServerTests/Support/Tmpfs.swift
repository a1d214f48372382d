import Foundation
import Testing

/// A small tmpfs mounted for a test (CI runs as root), so a disk can really fill up.
final class Tmpfs: Sendable {
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

    /// Fills the file system up to about `leaving` free bytes with a file that `release`
    /// deletes (a little less when a daemon writes at the same moment).
    func fill(leaving: Int) throws {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0, "cannot create the filler file")
        defer { close(fd) }
        var size = freeBytes - leaving
        while size > 0, posix_fallocate(fd, 0, off_t(size)) != 0 { size -= 65_536 }
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
