/// An ARGB color, as Rive's `Color`: 8 bits per channel, alpha in the top byte of `argbValue`.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    public let alpha: UInt8
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    /// A color from an ARGB value (`0xFF3D7BFF` is opaque blue).
    public init(_ color: UInt32) {
        alpha = UInt8(truncatingIfNeeded: color >> 24)
        red = UInt8(truncatingIfNeeded: color >> 16)
        green = UInt8(truncatingIfNeeded: color >> 8)
        blue = UInt8(truncatingIfNeeded: color)
    }

    /// A color from its channels; opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.alpha = alpha
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The color as ARGB, alpha in the top byte.
    public var argbValue: UInt32 {
        UInt32(alpha) << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    /// `#AARRGGBB`, the wire form.
    public var description: String {
        let hex = String(argbValue, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
