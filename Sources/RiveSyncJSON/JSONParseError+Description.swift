extension JSONParseError: CustomStringConvertible {
    /// One line for logs, configuration errors and `bad_json` replies: `at byte 12: expected ':'`.
    public var description: String {
        switch self {
        case .syntax(let offset, let reason): return "at byte \(offset): \(reason)"
        case .tooDeep(let limit): return "nested deeper than \(limit) levels"
        case .tooLarge(let limit): return "longer than \(limit) bytes"
        }
    }
}
