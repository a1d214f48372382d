/// Comment lines in a configuration file: a line whose first non-blank characters are `//` is
/// a comment (as in the file `rivesyncd --generate-config` prints). JSON strings cannot span
/// lines, so such a line is never part of a value.
enum ConfigurationComments {
    /// `bytes` with every comment line's characters replaced by spaces, so that a JSON error's
    /// position is still the file's.
    static func blanked(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        var lineStart = true
        var inComment = false
        for i in result.indices {
            let byte = result[i]
            if byte == UInt8(ascii: "\n") {
                (lineStart, inComment) = (true, false)
                continue
            }
            if inComment {
                result[i] = UInt8(ascii: " ")
            } else if lineStart, byte == UInt8(ascii: "/"), i + 1 < result.count, result[i + 1] == UInt8(ascii: "/") {
                inComment = true
                result[i] = UInt8(ascii: " ")
            } else if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t"), byte != UInt8(ascii: "\r") {
                lineStart = false
            }
        }
        return result
    }
}
