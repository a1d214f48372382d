import Foundation
import RiveSyncTransport
import Synchronization

/// The daemon's one log sink: structured lines on stderr, `level=info msg="…" key=value …`
/// (or, in the `json` format, one JSON object per line: `time`, `level`, `message` and the
/// fields; see `LogFormat`), for our own lines and libwebsockets' (`source=lws`, see
/// `routeTransportLines`). Lines below `minimum` are not written (`--log-level`, `logLevel`;
/// changed by SIGHUP, as is the format). Under systemd
/// (`JOURNAL_STREAM` names stderr) each line starts with its syslog priority (`<6>`), so
/// journald records it at that priority.
public struct Log: Sendable {
    /// How severe a line is.
    public enum Level: String, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error

        /// Its rank, least severe first.
        var rank: Int { Self.allCases.firstIndex(of: self)! }
        /// Its syslog priority (`LOG_DEBUG` 7, `LOG_INFO` 6, `LOG_WARNING` 4, `LOG_ERR` 3).
        var priority: Int { [7, 6, 4, 3][rank] }

        public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
    }

    private let sink: Sink

    /// The shared state of every copy of one `Log`.
    private final class Sink: Sendable {
        let minimum: Atomic<Int>
        let json: Atomic<Bool>
        let journal: Bool
        init(minimum: Level, format: LogFormat, journal: Bool) {
            self.minimum = Atomic(minimum.rank)
            self.json = Atomic(format == .json)
            self.journal = journal
        }
    }

    /// - Parameters:
    ///   - minimum: the least severe level written.
    ///   - format: how a line is written.
    ///   - environment: where `JOURNAL_STREAM` is read.
    public init(
        minimum: Level = .info, format: LogFormat = .text, environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        sink = Sink(minimum: minimum, format: format, journal: Self.stderrIsJournal(environment["JOURNAL_STREAM"]))
    }

    /// How lines are written; setting it affects every copy of this log.
    public var format: LogFormat {
        get { sink.json.load(ordering: .relaxed) ? .json : .text }
        nonmutating set { sink.json.store(newValue == .json, ordering: .relaxed) }
    }

    /// The least severe level written; setting it affects every copy of this log.
    public var minimum: Level {
        get { Level.allCases[sink.minimum.load(ordering: .relaxed)] }
        nonmutating set { sink.minimum.store(newValue.rank, ordering: .relaxed) }
    }

    /// Whether lines at `level` are written now (to skip building costly metadata).
    public func writes(_ level: Level) -> Bool { level.rank >= sink.minimum.load(ordering: .relaxed) }

    public func callAsFunction(_ level: Level, _ message: String, _ metadata: [(String, String)] = []) {
        guard writes(level) else { return }
        emit(level, message, metadata)
    }

    /// Writes an info line whatever `minimum` is: `listening on HOST:PORT`, which tests and
    /// scripts read the bound port from.
    public func announce(_ message: String, _ metadata: [(String, String)] = []) { emit(.info, message, metadata) }

    private func emit(_ level: Level, _ message: String, _ metadata: [(String, String)]) {
        var line = sink.journal ? "<\(level.priority)>" : ""
        if sink.json.load(ordering: .relaxed) {
            line += LogFormat.jsonLine(level: level.rawValue, message: message, metadata)
        } else {
            line += "level=\(level.rawValue) msg=\(Self.quote(message))"
            for (key, value) in metadata { line += " \(key)=\(Self.quote(value))" }
        }
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

    /// Sends libwebsockets' own lines through this log (`source=lws`; the transport's, which it
    /// logs through lws, as `source=transport`), mapped to our levels
    /// (`ERR` error, `WARN` warning, `NOTICE` and `INFO` debug: with the libev backend lws
    /// writes a notice for every socket watcher it starts or stops), and has lws emit only the
    /// levels `minimum` writes. Call again after changing `minimum`. Process-wide.
    public func routeTransportLines() {
        var levels: TransportLog.Levels = [.error]
        if writes(.warning) { levels.insert(.warning) }
        if writes(.debug) { levels.formUnion([.notice, .info]) }
        TransportLog.configure(levels: levels) { [self] level, text in
            let line = text.trimmingCharacters(in: .whitespaces)
            // The transport's own lines go through lws' logger too, marked "rivesync: ".
            if line.hasPrefix("rivesync: ") {
                self(Self.level(of: level), String(line.dropFirst(10)), [("source", "transport")])
            } else {
                self(Self.level(of: level), line, [("source", "lws")])
            }
        }
    }

    static func level(of lws: TransportLog.Levels) -> Level {
        if lws.contains(.error) { return .error }
        if lws.contains(.warning) { return .warning }
        return .debug
    }

    /// True when `JOURNAL_STREAM` (`DEVICE:INODE`) is the file stderr is open on, as systemd
    /// sets it for a service whose stderr is the journal.
    static func stderrIsJournal(_ variable: String?) -> Bool {
        guard let parts = variable?.split(separator: ":"), parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1])
        else { return false }
        var status = stat()
        guard fstat(2, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    static func quote(_ text: String) -> String {
        if !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || "._-:/@#[]".contains($0) }) { return text }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
