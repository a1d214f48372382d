/// Rive's `DataConverterStringPad` (type 530): pads a string to `length` bytes (key 743,
/// default 1) with repetitions of `text` (key 744), at the start (`padType` 0, key 745) or the
/// end (1). Lengths count UTF-8 bytes, as Rive's runtime does. Any value other than a string
/// gives "".
///
/// Unlike Rive, a length beyond ``maximumLength`` counts as that maximum, so that a hostile
/// file cannot make the daemon build a string of any size.
public struct DataConverterStringPad: Sendable, Hashable {
    /// The longest string padding builds (1 MiB).
    public static let maximumLength: UInt64 = 1 << 20

    public var length: UInt64
    public var text: String
    public var padType: UInt64

    public init(length: UInt64 = 1, text: String = "", padType: UInt64 = 0) {
        self.length = length
        self.text = text
        self.padType = padType
    }

    func convert(_ value: PropertyValue) -> PropertyValue {
        guard case .string(let string) = value else { return .string("") }
        let input = Array(string.utf8)
        let pattern = Array(text.utf8)
        let length = min(self.length, Self.maximumLength)
        guard UInt64(input.count) < length, !pattern.isEmpty else { return .string(string) }
        let padCount = Int(length) - input.count
        var padding: [UInt8] = []
        var filled = input.count
        while UInt64(filled) < length {
            let take = min(padCount, pattern.count)
            padding.append(contentsOf: pattern.prefix(take))
            filled += take
        }
        let pad = padding.prefix(padCount)
        let bytes = padType == 1 ? input + pad : Array(pad) + input
        return .string(String(decoding: bytes, as: UTF8.self))
    }
}
