import Foundation
import RiveSyncTestSupport
import Testing

/// A small tmpfs mounted for a test (CI runs as root), so a disk can really fill up.
final class Tmpfs: Sendable {
    let path: String

    /// Mounts a tmpfs of `bytes` at a new temporary directory; the test fails without root.
    init(bytes: Int) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mount = try ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path], output: .merged, seconds: 60)
        try #require(mount.status == 0, "this test needs to mount a tmpfs (root): \(mount.output)")
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
        // Clean-up: a failure here leaves a directory in /tmp, which fails no behaviour.
        _ = try? ChildProcess.run("/bin/umount", [path], seconds: 60)
        try? FileManager.default.removeItem(atPath: path)
    }
}
