import Foundation

/// A to-string converter's `colorFormat` (key 766): text in which `%r %g %b %a` stand for the
/// color's channels in decimal, `%R %G %B %A` in two-digit upper-case hexadecimal, `%h %l %s`
/// for its hue (degrees), luminance and saturation (percent); a backslash makes the next
/// character literal and any other `%x` stays as written. As in Rive's runtime, a `%` after a
/// `%` writes one and still acts as a marker (`%%r` gives "%" and the red value), and a `%` at
/// the very end is dropped.
public struct ColorFormat: Sendable, Hashable {
    public var pattern: String

    public init(_ pattern: String) {
        self.pattern = pattern
    }

    /// The pattern with the markers replaced by `color`'s (0xAARRGGBB) components.
    public func format(_ color: UInt32) -> String {
        let channels = Channels(color)
        var output = ""
        var escaped = false
        var marker = false
        for character in pattern {
            if escaped {
                output.append(character)
                escaped = false
            } else if character == "\\" {
                if marker {
                    output.append("%")
                    marker = false
                }
                escaped = true
            } else if character == "%" {
                if marker { output.append("%") }
                marker = true
            } else if marker {
                output += channels.text(for: character) ?? "%\(character)"
                marker = false
            } else {
                output.append(character)
            }
        }
        return output
    }

    /// A color's channels and, as Rive computes them, its hue, luminance and saturation.
    struct Channels {
        var alpha, red, green, blue: Int

        init(_ color: UInt32) {
            alpha = Int(color >> 24 & 0xFF)
            red = Int(color >> 16 & 0xFF)
            green = Int(color >> 8 & 0xFF)
            blue = Int(color & 0xFF)
        }

        func text(for marker: Character) -> String? {
            switch marker {
            case "r": return String(red)
            case "g": return String(green)
            case "b": return String(blue)
            case "a": return String(alpha)
            case "R": return Self.hex(red)
            case "G": return Self.hex(green)
            case "B": return Self.hex(blue)
            case "A": return Self.hex(alpha)
            case "h": return String(hsl.hue)
            case "l": return String(hsl.luminance)
            case "s": return String(hsl.saturation)
            default: return nil
            }
        }

        static func hex(_ value: Int) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return digits.count < 2 ? "0" + digits : digits
        }

        /// Hue in whole degrees (0..<360), luminance and saturation in whole percent.
        var hsl: (hue: Int, luminance: Int, saturation: Int) {
            let r = Float(red) / 255
            let g = Float(green) / 255
            let b = Float(blue) / 255
            let maximum = max(max(r, g), b)
            let minimum = min(min(r, g), b)
            let delta = maximum - minimum
            var hue: Float = 0
            if delta != 0 {
                if maximum == r {
                    hue = fmodf((g - b) / delta, 6)
                } else if maximum == g {
                    hue = (b - r) / delta + 2
                } else {
                    hue = (r - g) / delta + 4
                }
            }
            var degrees = Int((hue * 60).rounded(.toNearestOrAwayFromZero))
            if degrees < 0 { degrees += 360 }
            let luminance = (maximum + minimum) / 2
            let saturation = delta == 0 ? 0 : delta / (1 - abs(2 * luminance - 1))
            return (
                degrees, Int((luminance * 100).rounded(.toNearestOrAwayFromZero)),
                Int((saturation * 100).rounded(.toNearestOrAwayFromZero))
            )
        }
    }
}
