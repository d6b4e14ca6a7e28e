/// RFC 4648 base 32 without padding, upper case: letters and the digits 2–7, the characters a QR
/// code's alphanumeric mode holds.
enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// - Complexity: O(n).
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0, bits = 0
        for b in bytes {
            buffer = (buffer << 8) | UInt32(b)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text` (upper case, no padding); nil for any other character, or a length no
    /// encoding makes, or leftover bits that are not zero (so each byte string has one code).
    /// - Complexity: O(n).
    static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for c in text.utf8 {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "2")...UInt8(ascii: "7"): v = UInt32(c - UInt8(ascii: "2") + 26)
            default: return nil
            }
            buffer = (buffer << 5) | v
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        guard bits < 5, buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }
}
