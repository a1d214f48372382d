import Foundation

/// Structured log lines on stderr (for journald): `level=info msg="…" key=value …`.
public struct Log: Sendable {
    public enum Level: String, Sendable, Comparable {
        case debug, info, warning, error
        public static func < (a: Level, b: Level) -> Bool {
            [Level.debug, .info, .warning, .error].firstIndex(of: a)! < [Level.debug, .info, .warning, .error].firstIndex(of: b)!
        }
    }

    public var minimum: Level
    public init(minimum: Level = .info) { self.minimum = minimum }

    public func callAsFunction(_ level: Level, _ message: String, _ metadata: [(String, String)] = []) {
        guard level >= minimum else { return }
        var line = "level=\(level.rawValue) msg=\(Self.quote(message))"
        for (key, value) in metadata { line += " \(key)=\(Self.quote(value))" }
        line += "\n"
        Self.writeStandardError(line)
    }

    /// Writes `text` to file descriptor 2 with `write(2)`, ignoring every failure: a closed or
    /// full stderr loses the line and nothing else. (`FileHandle.write` traps on `EPIPE`, and
    /// without `SIGPIPE` ignored the write itself kills the process.) Never blocks on a lock.
    public static func writeStandardError(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    static func quote(_ text: String) -> String {
        if !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || "._-:/@#".contains($0) }) { return text }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
