/// The exit statuses of `rivesync` (the table in `rivesync --help` and docs/CLI.md). 64 is
/// sysexits' `EX_USAGE`.
public enum ExitCode: Int32, Sendable, CaseIterable {
    case success = 0
    /// The command ran but failed for another reason (an unreadable file, an internal error).
    case failure = 1
    /// A script's expectation was not met (`expect`, `wait`).
    case expectationFailed = 2
    /// The daemon could not be reached, or the connection was lost.
    case unreachable = 3
    /// The daemon refused the token (`unauthorized`).
    case unauthorized = 4
    /// The token lacks a permission (`forbidden`).
    case forbidden = 5
    /// No such target, file, view model, artboard, property, slot or instance.
    case notFound = 6
    /// A value cannot be used: one the command line gives (a VALUE, INDEX, INSTANCE or option value)
    /// or one the daemon refused (`type_mismatch`, `invalid_enum_value`, `index_out_of_range`…).
    case invalidValue = 7
    /// The daemon refused the request for another reason (`not_manual`, `target_exists`, a limit…).
    case rejected = 8
    /// `--timeout` ran out (connecting, waiting for an acknowledgement, `watch`, a script step).
    case timeout = 9
    /// The command line's shape is wrong (unknown command or option, missing or extra argument).
    case usage = 64

    /// The word used for the status in `--json` errors and the help table.
    public var name: String {
        switch self {
        case .success: return "success"
        case .failure: return "failure"
        case .expectationFailed: return "expectation_failed"
        case .unreachable: return "unreachable"
        case .unauthorized: return "unauthorized"
        case .forbidden: return "forbidden"
        case .notFound: return "not_found"
        case .invalidValue: return "invalid_value"
        case .rejected: return "rejected"
        case .timeout: return "timeout"
        case .usage: return "usage"
        }
    }
}
