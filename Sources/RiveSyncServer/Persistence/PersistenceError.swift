import Glibc

/// Why persistent state could not be written or read.
public enum PersistenceError: Error, Sendable, CustomStringConvertible {
    /// A write or fsync failed (disk full, I/O error…): the change was not made durable.
    case writeFailed(path: String, errno: Int32)
    /// The state on disk is damaged somewhere other than a torn last record.
    case corrupt(path: String, line: Int, reason: String)
    /// The state directory cannot be used.
    case unusable(path: String, reason: String)

    public var description: String {
        switch self {
        case .writeFailed(let path, let code): return "\(path): write failed (errno \(code))"
        case .corrupt(let path, let line, let reason):
            return "\(path): corrupt at line \(line) (\(reason)); refusing to start — move the file aside to start without it"
        case .unusable(let path, let reason): return "\(path): \(reason)"
        }
    }
}

/// When an acknowledged change is on disk (like Redis' `appendfsync`).
public enum DurabilityPolicy: String, Sendable, Hashable {
    /// Every advance is written and fsynced before its batch and acks are sent.
    case always
    /// Every advance is written before its batch and acks are sent (it survives a crash of the
    /// daemon); fsync runs once a second (a power failure can lose the last second).
    case everysec
}

extension PersistenceError {
    /// What a client is told in `storage_failed`: the kind of failure and the system's reason,
    /// never a path in the state directory (the daemon's log has the whole error).
    public var clientDescription: String {
        switch self {
        case .writeFailed(_, let code): "the state directory could not be written: \(String(cString: strerror(code))) (errno \(code))"
        case .corrupt: "the state directory is damaged"
        case .unusable: "the state directory cannot be used"
        }
    }

    /// `clientDescription` of `error` when it is a `PersistenceError`, else a text without detail.
    static func clientDescription(of error: any Error) -> String {
        (error as? PersistenceError)?.clientDescription ?? "the state directory could not be written"
    }
}
