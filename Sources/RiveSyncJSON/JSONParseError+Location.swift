extension JSONParseError {
    /// Where a syntax error is in the text it came from: the 1-based line and column (columns
    /// count characters, a tab as one), nil for the errors that have no position.
    public func location(in bytes: [UInt8]) -> (line: Int, column: Int)? {
        guard case .syntax(let offset, _) = self else { return nil }
        var (line, column) = (1, 1)
        for byte in bytes.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                (line, column) = (line + 1, 1)
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// The error for a reader who knows the file: `3:42: unexpected character` for a syntax
    /// error (line and column in `bytes`), the description otherwise.
    public func description(in bytes: [UInt8]) -> String {
        guard case .syntax(_, let reason) = self, let (line, column) = location(in: bytes) else { return description }
        return "\(line):\(column): \(reason)"
    }
}
