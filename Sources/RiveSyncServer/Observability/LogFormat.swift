import Foundation
import RiveSyncJSON

/// How the daemon writes a log line (`logFormat`, `--log-format`, `RIVESYNC_LOG_FORMAT`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// `level=info msg="…" key=value …` (logfmt), the default.
    case text
    /// One JSON object per line: `{"time": "2026-12-04T18:15:45.123Z", "level": "info",
    /// "message": "…", "key": "value", …}`, the fields after `message` in the order logged (a
    /// field named `time`, `level` or `message` is written as `field.time`, … so that no
    /// member appears twice).
    case json

    /// One line (without its newline) in the `json` format, stamped with the current UTC time.
    static func jsonLine(level: String, message: String, _ fields: [(String, String)]) -> String {
        var members: [(String, JSONValue)] = [("time", .string(timestamp())), ("level", .string(level)), ("message", .string(message))]
        for (key, value) in fields {
            members.append((["time", "level", "message"].contains(key) ? "field.\(key)" : key, .string(value)))
        }
        return JSONValue.object(members).jsonText
    }

    /// The current time as RFC 3339 in UTC with milliseconds (`2026-12-04T18:15:45.123Z`).
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(now.tv_nsec / 1_000_000)
        let fraction = String(repeating: "0", count: 3 - "\(milliseconds)".count) + "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):"
            + "\(two(parts.tm_sec)).\(fraction)Z"
    }
}
