/// Rive's `DataConverterStringRemoveZeros` (type 531): drops a number string's trailing zeros
/// after the decimal point, and the point itself when nothing follows it ("2.500" → "2.5",
/// "3.000" → "3"). Strings without a point stay as they are; any value other than a string
/// gives "".
public struct DataConverterStringRemoveZeros: Sendable, Hashable {
    public init() {}

    func convert(_ value: PropertyValue) -> PropertyValue {
        guard case .string(let string) = value else { return .string("") }
        return .string(Self.removeZeros(string))
    }

    /// Rive's `removeZeros`.
    static func removeZeros(_ string: String) -> String {
        guard string.contains(".") else { return string }
        var characters = Substring(string)
        while characters.last == "0" { characters.removeLast() }
        if characters.firstIndex(of: ".") == characters.indices.last { characters.removeLast() }
        return String(characters)
    }
}
