/// Why a command did not succeed. Each case maps to one exit status; its message is one line
/// (a script failure adds the expected and actual values on the lines after).
public enum CommandError: Error, Sendable, Hashable {
    /// The command line's shape is wrong: an unknown command or option, a missing or extra
    /// argument (exit 64).
    case usage(String)
    /// A value on the command line cannot be used: a VALUE, INDEX, INSTANCE or an option's
    /// value such as `--timeout abc` (exit 7, as when the daemon refuses a value).
    case invalidValue(String)
    /// The command could not do its work (exit 1).
    case failure(String)
    /// The daemon or the connection reported an error: its exit status, the protocol's error
    /// code (`no_such_property`) or the CLI's word for it (`unreachable`), and the message.
    case remote(ExitCode, code: String, message: String)
    /// `--timeout` ran out (exit 9).
    case timeout(String)
    /// A script's expectation was not met (exit 2).
    case expectationFailed(String)

    var exitCode: ExitCode {
        switch self {
        case .usage: return .usage
        case .invalidValue: return .invalidValue
        case .failure: return .failure
        case .remote(let status, _, _): return status
        case .timeout: return .timeout
        case .expectationFailed: return .expectationFailed
        }
    }

    /// The error's code in `--json` output: the protocol's where the daemon gave one.
    var code: String {
        switch self {
        case .remote(_, let code, _): return code
        default: return exitCode.name
        }
    }

    var message: String {
        switch self {
        case .usage(let text), .invalidValue(let text), .failure(let text), .remote(_, _, let text), .timeout(let text),
            .expectationFailed(let text):
            return text
        }
    }
}
