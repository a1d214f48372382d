import Foundation

/// Rive's `DataConverterToString` (type 490): writes any value as text.
///
/// Numbers print as C's `%f` (six decimals), or with `decimals` (key 765) decimals when
/// `flags` (key 764) has ``Flags/round``; then trailing zeros go (``Flags/trailingZeros``) and
/// thousands get commas (``Flags/formatWithCommas``). Colors follow `colorFormat` (key 766, see
/// ``ColorFormat``) or, without one, print their signed 32-bit value. Enums give their value,
/// booleans "1" or "0", triggers their count, symbol list indices their value, strings
/// themselves; anything else "". (More than 100 decimals print as 100.)
public struct DataConverterToString: Sendable, Hashable {
    /// `flags` (key 764).
    public struct Flags: OptionSet, Sendable, Hashable {
        public var rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        /// Round to `decimals` decimals (otherwise six).
        public static let round = Flags(rawValue: 1 << 0)
        /// Remove trailing zeros after the decimal point.
        public static let trailingZeros = Flags(rawValue: 1 << 1)
        /// Separate thousands with commas.
        public static let formatWithCommas = Flags(rawValue: 1 << 2)
    }

    public var flags: Flags
    public var decimals: UInt64
    public var colorFormat: String

    public init(flags: Flags = [], decimals: UInt64 = 0, colorFormat: String = "") {
        self.flags = flags
        self.decimals = decimals
        self.colorFormat = colorFormat
    }

    func convert(_ value: PropertyValue) -> PropertyValue {
        switch value {
        case .number(let number): return .string(format(number))
        case .enumValue(let name): return .string(name)
        case .string: return value
        case .color(let color):
            if colorFormat.isEmpty { return .string(String(Int32(bitPattern: color))) }
            return .string(ColorFormat(colorFormat).format(color))
        case .boolean(let flag): return .string(flag ? "1" : "0")
        case .trigger(let count): return .string(String(UInt32(truncatingIfNeeded: count)))
        case .symbolListIndex(let index): return .string(String(index))
        default: return .string("")
        }
    }

    func format(_ number: Float) -> String {
        let precision = flags.contains(.round) ? Int(min(decimals, 100)) : 6
        var text = String(format: "%.\(precision)f", Double(number))
        if flags.contains(.trailingZeros) { text = DataConverterStringRemoveZeros.removeZeros(text) }
        if flags.contains(.formatWithCommas) { text = Self.withCommas(text) }
        return text
    }

    /// Rive's `formatWithCommas`: a comma every three digits of the integer part, counting
    /// from its end, while a digit precedes the insertion point.
    static func withCommas(_ number: String) -> String {
        var integer = Array(number.utf8)
        var fraction: [UInt8] = []
        if let dot = integer.firstIndex(of: UInt8(ascii: ".")) {
            fraction = Array(integer[dot...])
            integer.removeSubrange(dot...)
        }
        var position = integer.count - 3
        while position > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(integer[position - 1]) {
            integer.insert(UInt8(ascii: ","), at: position)
            position -= 3
        }
        return String(decoding: integer + fraction, as: UTF8.self)
    }
}
