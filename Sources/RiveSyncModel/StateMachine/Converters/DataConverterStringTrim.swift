/// Rive's `DataConverterStringTrim` (type 532): removes white space (C's `isspace`: space,
/// tab, line feed, vertical tab, form feed, carriage return) from the start (`trimType` 1, the
/// default, key 746), the end (2) or both ends (3) of a string; 0 leaves it. Any value other
/// than a string gives "".
public struct DataConverterStringTrim: Sendable, Hashable {
    public var trimType: UInt64

    public init(trimType: UInt64 = 1) {
        self.trimType = trimType
    }

    func convert(_ value: PropertyValue) -> PropertyValue {
        guard case .string(let string) = value else { return .string("") }
        var bytes = ArraySlice(string.utf8)
        if trimType == 2 || trimType == 3 {
            while let last = bytes.last, Self.isSpace(last) { bytes.removeLast() }
        }
        if trimType == 1 || trimType == 3 {
            while let first = bytes.first, Self.isSpace(first) { bytes.removeFirst() }
        }
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
