/// Text forms of ARGB colors: `#AARRGGBB` (printed) and `#RRGGBB` (read, alpha 0xFF).
public enum ColorText {
    /// `#AARRGGBB`, upper-case hex.
    public static func format(_ argb: UInt32) -> String {
        let hex = String(argb, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Parses `#RRGGBB` or `#AARRGGBB`; nil for anything else.
    public static func parse(_ text: String) -> UInt32? {
        guard text.hasPrefix("#") else { return nil }
        let digits = text.dropFirst()
        guard digits.count == 6 || digits.count == 8,
            digits.allSatisfy({ $0.isHexDigit }), let value = UInt32(digits, radix: 16)
        else { return nil }
        return digits.count == 6 ? 0xFF00_0000 | value : value
    }
}
