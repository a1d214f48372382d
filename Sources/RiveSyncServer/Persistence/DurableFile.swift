import Foundation
import RiveSyncToolSupport

/// Small POSIX file helpers with errors that carry `errno`.
enum DurableFile {
    /// Writes `bytes` to `path` atomically: new file, fsync, rename, fsync the directory. On
    /// failure the old file is untouched and the new one removed (it may hold the last free
    /// blocks of a full disk).
    static func replace(_ path: String, with bytes: [UInt8]) throws(PersistenceError) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .writeFailed(path: temporary, errno: errno) }
        do throws(PersistenceError) {
            defer { close(fd) }
            try writeAll(fd, bytes, path: temporary)
            guard fsync(fd) == 0 else { throw PersistenceError.writeFailed(path: temporary, errno: errno) }
            guard rename(temporary, path) == 0 else { throw PersistenceError.writeFailed(path: path, errno: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncDirectory(of: path)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(PersistenceError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(path: path, errno: errno)
            }
            offset += written
        }
    }

    static func syncDirectory(of path: String) throws(PersistenceError) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .writeFailed(path: directory, errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .writeFailed(path: directory, errno: errno) }
    }

    /// Makes `path` and its missing parents; a failure says why as the OS does
    /// (`cannot create directory: permission denied (EACCES)`), as for the state directory.
    static func makeDirectory(_ path: String) throws(PersistenceError) {
        var code: Int32 = mkdir(path, 0o777) == 0 ? 0 : errno
        if code == ENOENT {
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty, parent != path { try makeDirectory(parent) }
            code = mkdir(path, 0o777) == 0 ? 0 : errno
        }
        if code == EEXIST {
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
                throw .unusable(path: path, reason: "cannot create directory: a file that is not a directory has its name (EEXIST)")
            }
            return
        }
        guard code != 0 else { return }
        throw .unusable(path: path, reason: "cannot create directory: \(FileReadError.system(code))")
    }

    /// Makes the state directory itself when it is missing (mode 0700), but not a missing
    /// parent: a mistyped `--state-dir /var/lib/rivesyncd/typo/state` is refused instead of
    /// silently creating a whole path.
    static func makeStateDirectory(_ path: String) throws(PersistenceError) {
        guard mkdir(path, 0o700) != 0 else { return }
        let code = errno
        switch code {
        case EEXIST: return
        case ENOENT: throw missingParent(path)
        default: throw .unusable(path: path, reason: "cannot create directory: \(FileReadError.system(code))")
        }
    }

    /// What would stop `makeStateDirectory` and the journals in it, found without making
    /// anything (`--check-config`): nil when `path` is a directory this process may write in,
    /// or one it may make.
    static func stateDirectoryProblem(_ path: String) -> PersistenceError? {
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else { return .unusable(path: path, reason: "not a directory") }
            guard access(path, W_OK | X_OK) == 0 else {
                return .unusable(path: path, reason: "cannot write in it: \(FileReadError.system(errno))")
            }
            return nil
        }
        guard errno == ENOENT else { return .unusable(path: path, reason: "\(FileReadError.system(errno))") }
        let parent = parent(of: path)
        guard stat(parent, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return missingParent(path) }
        guard access(parent, W_OK | X_OK) == 0 else {
            return .unusable(path: path, reason: "cannot create directory: \(FileReadError.system(errno))")
        }
        return nil
    }

    private static func parent(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    private static func missingParent(_ path: String) -> PersistenceError {
        .unusable(path: path, reason: "its parent directory \(parent(of: path)) does not exist (create it first)")
    }

    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}
