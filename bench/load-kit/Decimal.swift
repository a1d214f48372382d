/// Decimal digits of an integer appended to a byte buffer in place, the encoders' way of
/// writing numbers without making a string first.
enum Decimal {
    /// Appends `value` in decimal (`-` first if negative).
    static func append(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        append(UInt64(value.magnitude), to: &out)
    }

    /// Appends `value` in decimal.
    static func append(_ value: UInt64, to out: inout [UInt8]) {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        let end = out.count + count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        out.withUnsafeMutableBufferPointer { buffer in
            var position = end
            var left = value
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(left % 10)
                left /= 10
            } while left > 0
        }
    }
}
