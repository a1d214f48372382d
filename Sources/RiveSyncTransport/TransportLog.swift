import CWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// Routing of libwebsockets' own log lines (process-global in lws).
public enum TransportLog {
    /// lws log levels (`LLL_*`).
    public struct Levels: OptionSet, Sendable {
        public let rawValue: Int32
        /// Wraps an `LLL_*` bit mask.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// `LLL_ERR`.
        public static let error = Levels(rawValue: 1 << 0)
        /// `LLL_WARN`.
        public static let warning = Levels(rawValue: 1 << 1)
        /// `LLL_NOTICE`.
        public static let notice = Levels(rawValue: 1 << 2)
        /// `LLL_INFO`.
        public static let info = Levels(rawValue: 1 << 3)
    }

    /// Receives one lws log line (without trailing newline) and its level. Called on whichever
    /// thread lws logs from (normally a service thread); must not block.
    public typealias Sink = @Sendable (Levels, String) -> Void

    private static let state = Locked<(configured: Bool, sink: Sink?)>((false, nil))

    /// Sets the levels lws emits and where lines go (`nil`: stderr). Process-wide.
    public static func configure(levels: Levels = [.error, .warning], sink: Sink? = nil) {
        state.withLock { $0 = (true, sink) }
        lws_set_log_level(levels.rawValue) { level, line in
            guard let line else { return }
            var text = String(cString: line)
            while text.last == "\n" { text.removeLast() }
            if let sink = TransportLog.state.withLock({ $0.sink }) {
                sink(Levels(rawValue: level), text)
            } else {
                text += "\n"
                _ = text.withCString { write(2, $0, strlen($0)) }
            }
        }
    }

    /// Applies the default (errors and warnings to stderr) unless `configure` was called.
    static func configureDefaultIfNeeded() {
        if !state.withLock({ $0.configured }) { configure() }
    }

    /// Logs one line through lws' logger (so it reaches the same sink).
    static func log(_ level: Levels, _ message: String) {
        rs_lws_log(level.rawValue, message)
    }
}
