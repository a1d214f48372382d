/// Why a command did not succeed. Each case maps to one exit status; its message is one line.
public enum CommandError: Error, Sendable, Hashable {
    /// The command line is wrong (exit 64).
    case usage(String)
    /// The command could not do its work (exit 1).
    case failure(String)

    var exitCode: ExitCode {
        switch self {
        case .usage: return .usage
        case .failure: return .failure
        }
    }

    var message: String {
        switch self {
        case .usage(let text), .failure(let text): return text
        }
    }
}
