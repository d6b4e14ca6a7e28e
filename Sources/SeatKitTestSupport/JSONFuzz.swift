import Foundation

/// Seeded mutations of a JSON document for fuzz tests of everything that reads input: one number or one
/// string literal replaced by an extreme value, or one array made huge. It works on the text (a small lexer
/// that finds literals outside strings), so it does not share a parser with the code it tests.
public struct JSONFuzz: Sendable {
    /// Number literals that have broken conversions elsewhere: beyond Int64 (±2^63), beyond Float, past the
    /// 9.2·10^16 where `x * 100` leaves Int64, Double's extremes and subnormals, -0, and the non-JSON
    /// spellings of NaN and infinity (a parser must refuse those).
    public static let extremeNumbers = [
        "1e17", "-1e17", "1e308", "-1e308", "1e400", "-1e400", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551616", "9007199254740993", "4294967296",
        "2147483648", "65536", "-1", "-0", "-0.0", "0", "0.5", "1e-320", "4.9e-324", "3.4028236e38", "1e16", "1.0000000001",
        "NaN", "nan", "Infinity", "-Infinity", "1e999999999999",
    ]
    /// Strings that importers may read as numbers (`Double("nan")` is NaN in Swift) or as dates and ids.
    public static let extremeStrings = [
        "NaN", "nan", "-nan", "inf", "-inf", "Infinity", "-Infinity", "infinity", "1e400", "1e17", "-1e17", "1e308",
        "9223372036854775808", "-9223372036854775809", "0x10", " 1e308 ", "-0", "", " ", "\\u0000", "a/b?c#d",
        "\\ud800", "9999-99-99T99:99:99Z", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    ]

    public enum Kind: Sendable, Equatable { case number, string }

    /// A literal's place in the text: its byte range (quotes included for strings) and kind.
    public struct Literal: Sendable, Equatable {
        public var range: Range<Int>
        public var kind: Kind
    }

    public let text: [UInt8]
    public let literals: [Literal]
    /// Where each array opens (`[`), for the huge-array mutation.
    public let arrays: [Int]

    public init(_ text: [UInt8]) {
        self.text = text
        var literals: [Literal] = [], arrays: [Int] = []
        var i = 0
        while i < text.count {
            let c = text[i]
            if c == UInt8(ascii: "\"") {
                var j = i + 1
                while j < text.count && text[j] != UInt8(ascii: "\"") { j += text[j] == UInt8(ascii: "\\") ? 2 : 1 }
                let end = min(j + 1, text.count)
                // A string followed by `:` is a member name, not a value.
                var k = end
                while k < text.count && (text[k] == 32 || text[k] == 10 || text[k] == 13 || text[k] == 9) { k += 1 }
                if k >= text.count || text[k] != UInt8(ascii: ":") { literals.append(Literal(range: i..<end, kind: .string)) }
                i = end
            } else if c == UInt8(ascii: "-") || (c >= 48 && c <= 57) {
                var j = i + 1
                while j < text.count, Self.numberBytes.contains(text[j]) { j += 1 }
                literals.append(Literal(range: i..<j, kind: .number))
                i = j
            } else {
                if c == UInt8(ascii: "[") { arrays.append(i) }
                i += 1
            }
        }
        self.literals = literals
        self.arrays = arrays
    }

    static let numberBytes = Set("0123456789+-.eE".utf8)

    /// The text with one literal replaced by `replacement` (written as is: quote strings yourself).
    public func replacing(_ literal: Literal, with replacement: String) -> [UInt8] {
        var out = text
        out.replaceSubrange(literal.range, with: Array(replacement.utf8))
        return out
    }

    /// One seeded mutation and what it was, for the failure message.
    public func mutation(_ rng: inout TestRandom) -> (bytes: [UInt8], description: String) {
        if !arrays.isEmpty && rng.next() % 50 == 0 {
            // One array's first element repeated: 2,001 elements where the file had a few.
            let open = arrays[Int(rng.next() % UInt64(arrays.count))]
            guard let element = firstElement(after: open) else { return (text, "unchanged") }
            var out = Array(text[..<(open + 1)])
            let copy = Array(text[element])
            for _ in 0..<2_000 { out += copy; out.append(UInt8(ascii: ",")) }
            out += text[element.lowerBound...]
            return (out, "array at byte \(open) repeated 2,000 times")
        }
        guard !literals.isEmpty else { return (text, "unchanged") }
        let literal = literals[Int(rng.next() % UInt64(literals.count))]
        let original = String(decoding: text[literal.range], as: UTF8.self)
        let asNumber = Self.extremeNumbers[Int(rng.next() % UInt64(Self.extremeNumbers.count))]
        let asString = "\"" + Self.extremeStrings[Int(rng.next() % UInt64(Self.extremeStrings.count))] + "\""
        // Mostly like for like; sometimes a number where a string was and the other way round.
        let crossed = rng.next() % 5 == 0
        let replacement = (literal.kind == .number) != crossed ? asNumber : asString
        return (replacing(literal, with: replacement), "\(original) at byte \(literal.range.lowerBound) → \(replacement)")
    }

    /// The byte range of the first element of the array opening at `open` (a literal, or a balanced
    /// object or array), nil for an empty array.
    func firstElement(after open: Int) -> Range<Int>? {
        var i = open + 1
        while i < text.count && (text[i] == 32 || text[i] == 10 || text[i] == 13 || text[i] == 9) { i += 1 }
        guard i < text.count, text[i] != UInt8(ascii: "]") else { return nil }
        if let literal = literals.first(where: { $0.range.lowerBound == i }) { return literal.range }
        var depth = 0, j = i, inString = false
        while j < text.count {
            let c = text[j]
            if inString {
                if c == UInt8(ascii: "\\") { j += 1 } else if c == UInt8(ascii: "\"") { inString = false }
            } else if c == UInt8(ascii: "\"") {
                inString = true
            } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return i..<(j + 1) }
            } else if depth == 0 && (c == UInt8(ascii: ",")) {
                return i..<j
            }
            j += 1
        }
        return nil
    }

    /// The seed for a fuzz run: `SEATKIT_FUZZ_SEED` when set (to replay CI's run or try others), else `fallback`.
    public static func seed(_ fallback: UInt64) -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["SEATKIT_FUZZ_SEED"], let seed = UInt64(text) { return seed }
        return fallback
    }
}
