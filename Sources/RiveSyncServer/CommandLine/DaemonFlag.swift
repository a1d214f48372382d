/// One of `rivesyncd`'s flags: the row `usage` prints, the name suggestions offer, and what
/// shell completion offers after it (`DaemonCompletion`).
public struct DaemonFlag: Sendable, Equatable {
    /// What the flag's value is, for completion.
    public enum Value: Sendable, Equatable {
        /// The flag takes no value.
        case none
        /// A file on this machine (completed with file names).
        case file
        /// A directory on this machine (completed with directory names).
        case directory
        /// One of these words.
        case words([String])
        /// Free text (not completed).
        case text
    }

    /// `--config`.
    public let name: String
    /// `FILE` in `--config FILE`; nil for a flag without a value.
    public let valueName: String?
    public let value: Value
    /// The help text, one string a printed line.
    public let help: [String]

    init(_ name: String, _ valueName: String? = nil, _ value: Value = .none, _ help: String...) {
        self.name = name
        self.valueName = valueName
        self.value = value
        self.help = help
    }

    /// The help text on one line, for shells that show one line per flag.
    public var summary: String { help.joined(separator: " ") }

    /// The flag's rows in `usage`: `  --config FILE        read …`, then its help's other lines.
    var usageLines: [String] {
        let head = valueName.map { "\(name) \($0)" } ?? name
        let indent = String(repeating: " ", count: 23)
        let first = "  " + head + String(repeating: " ", count: max(1, 21 - head.count)) + (help.first ?? "")
        return [first] + help.dropFirst().map { indent + $0 }
    }
}

extension DaemonCommandLine {
    /// The shells `--completion` writes a script for.
    public static let completionShells = ["bash", "zsh", "fish"]

    /// Every flag of `rivesyncd`, in `usage`'s order.
    public static let flagTable: [DaemonFlag] = [
        DaemonFlag(
            "--demo", nil, .none, "serve the built-in demo (file 'demo': global Theme published as",
            "'theme', state machines 'character', 'lobby' and",
            "'manual-target' (advanced only when asked)), with the",
            "inspector at / and the preview at /preview.html"),
        DaemonFlag("--config", "FILE", .file, "read the JSON configuration FILE (rivesyncd.conf(5))"),
        DaemonFlag(
            "--check-config", "FILE", .file, "check FILE and the files it names, print every problem with its",
            "key path, and exit 0 (valid) or 1; serves nothing"),
        DaemonFlag("--generate-config", nil, .none, "print a commented starting configuration (valid as it is)"),
        DaemonFlag(
            "--generate-token", nil, .none, "print a new random token's tokens file entry (the token",
            "itself on stderr: give it to the client)"),
        DaemonFlag(
            "--completion", "SHELL", .words(completionShells), "print the completion script for SHELL: bash, zsh or fish",
            "(the package installs them)"),
        DaemonFlag("--host", "ADDRESS", .text, "listen address (default 127.0.0.1)"),
        DaemonFlag("--port", "N", .text, "listen port (default 7420; 0 picks a free one, printed on stderr)"),
        DaemonFlag("--workers", "N", .text, "worker threads (default 2)"),
        DaemonFlag("--state-dir", "DIR", .directory, "directory for persistent state"),
        DaemonFlag(
            "--redis", "URL", .text, "be a cluster node on that Redis (redis://host:port/db; see",
            "protocol/CLUSTER.md); sets cluster.redis"),
        DaemonFlag("--log-level", "LEVEL", .words(Log.Level.allCases.map(\.rawValue)), "debug, info (default), warning or error"),
        DaemonFlag(
            "--log-format", "FORMAT", .words(LogFormat.allCases.map(\.rawValue)),
            "text (default: level=info msg=...) or json (one object a line)"),
        DaemonFlag("--version", nil, .none, "print the version"),
        DaemonFlag("--help", nil, .none, "show this help"),
    ]

    /// Every flag `usage` lists, for suggestions and shell completion.
    public static var flags: [String] { flagTable.map(\.name) }
}
