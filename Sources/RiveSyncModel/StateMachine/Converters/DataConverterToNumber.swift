import Foundation

/// Rive's `DataConverterToNumber` (type 617): reads a number out of another kind of value.
///
/// Strings parse as C's `atof` does (a leading number, 0 when there is none); a string out of
/// double's range keeps the previous output, as Rive's converter does. Colors give their
/// 0xAARRGGBB as a number, enums their index, booleans 1 or 0, symbol list indices their
/// value; anything else 0.
public struct DataConverterToNumber: Sendable, Hashable {
    /// The last output (what an out-of-range string leaves in place).
    var output: Float = 0

    public init() {}

    mutating func convert(_ value: PropertyValue, _ context: some DataConverterContext) -> PropertyValue {
        switch value {
        case .string(let text):
            if let number = Self.parse(text) { output = number }
        case .enumValue(let name): output = Float(context.enumValues.firstIndex(of: name) ?? 0)
        case .number(let number): output = number
        case .color(let color): output = Float(Int32(bitPattern: color))
        case .boolean(let flag): output = flag ? 1 : 0
        case .symbolListIndex(let index): output = Float(index)
        default: output = 0
        }
        return .number(output)
    }

    /// `atof(text)` as a Float; nil when the C library reports a range error.
    static func parse(_ text: String) -> Float? {
        errno = 0
        let number = text.withCString { strtod($0, nil) }
        guard errno == 0 else { return nil }
        return Float(number)
    }
}
