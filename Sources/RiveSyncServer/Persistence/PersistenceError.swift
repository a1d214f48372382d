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
