#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads whole files, and says why one cannot be read the way the OS does (`no such file
/// (ENOENT)`), for the messages of `rivesyncd` and `rivesync`.
public enum FileContents {
    /// The bytes of the file at `path`.
    /// - Parameter maxBytes: refuse a larger file before reading it.
    public static func bytes(atPath path: String, maxBytes: Int = Int.max) throws(FileReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .system(errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw .system(EISDIR) }
        if Int(status.st_size) > maxBytes { throw .tooLarge(maxBytes) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > maxBytes { throw .tooLarge(maxBytes) }
        }
    }
}

/// Why a file could not be read.
public enum FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The OS refused: its `errno`.
    case system(Int32)
    /// The file is larger than the reader accepts.
    case tooLarge(Int)

    /// `no such file (ENOENT)`, `permission denied (EACCES)`, `larger than 268435456 bytes`.
    public var description: String {
        switch self {
        case .tooLarge(let limit): return "larger than \(limit) bytes"
        case .system(let code):
            switch code {
            case ENOENT: return "no such file (ENOENT)"
            case EACCES: return "permission denied (EACCES)"
            case EISDIR: return "is a directory (EISDIR)"
            case ENOTDIR: return "a part of the path is not a directory (ENOTDIR)"
            case ELOOP: return "too many symbolic links (ELOOP)"
            default: return "\(String(cString: strerror(code))) (errno \(code))"
            }
        }
    }
}
