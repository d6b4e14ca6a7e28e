import Foundation

/// A display-list colour (`#RRGGBB` or `#RRGGBBAA`) as components from 0 to 1: what a UIKit or Core
/// Graphics adapter needs, parsed here so every adapter reads colours the same way.
public struct DisplayColor: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// Nil for anything but `#` and six or eight hex digits.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var values: [Double] = []
        var k = 1
        while k < digits.count {
            guard let hi = Self.nibble(digits[k]), let lo = Self.nibble(digits[k + 1]) else { return nil }
            values.append(Double(hi * 16 + lo) / 255)
            k += 2
        }
        self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 1)
    }

    /// WCAG 2.2's relative luminance (sRGB, alpha ignored).
    public var luminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2.2's contrast ratio with `other`, from 1 to 21 (AA asks 4.5 for text, 3 for large text).
    public func contrast(with other: DisplayColor) -> Double {
        let (a, b) = (luminance, other.luminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    static func nibble(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(c - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(c - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
