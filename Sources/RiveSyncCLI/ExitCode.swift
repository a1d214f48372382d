/// The exit statuses of `rivesync` (64 is sysexits' `EX_USAGE`).
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// The command ran but failed (e.g. an unreadable or malformed file).
    case failure = 1
    /// The command line itself is wrong.
    case usage = 64
}
