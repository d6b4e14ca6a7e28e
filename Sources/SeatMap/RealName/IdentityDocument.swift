import Foundation

/// An identity document as a real-name sale takes it (the notice of 12 September 2023: one ticket per
/// document per show): its type and its number, checked and written one way so that the same document
/// typed twice (spaces, full-width digits, a lower-case `x`) is one document.
///
/// The types are the ones Damai's and Maoyan's distribution APIs carry. A mainland ID card number is
/// checked with its check character (GB 11643); the others by their shape only, since their issuers
/// publish no check.
public struct IdentityDocument: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        /// 居民身份证 (also the residence permits of Hong Kong, Macau and Taiwan residents: the same 18
        /// characters and check).
        case idCard
        /// 护照: 5 to 17 letters and digits, at least one digit.
        case passport
        /// 港澳居民来往内地通行证 (回乡证): `H` or `M` then 8 or 10 digits.
        case hkMacauPermit
        /// 台湾居民来往大陆通行证 (台胞证): 8 digits (since 2015) or 10 characters (before).
        case taiwanPermit
        /// 军官证: a unit's character or two, `字第`, its number, `号` (`南字第12345678号`).
        case militaryID

        /// What the form calls it.
        public var words: (zh: String, en: String) {
            switch self {
            case .idCard: ("身份证", "ID card")
            case .passport: ("护照", "passport")
            case .hkMacauPermit: ("港澳通行证", "Hong Kong/Macau permit")
            case .taiwanPermit: ("台胞证", "Taiwan permit")
            case .militaryID: ("军官证", "military ID")
            }
        }
    }

    public var kind: Kind
    /// The number as checked: half-width, upper case, no spaces.
    public var number: String

    /// The document, or why `number` is not one of `kind` (the first problem, in the words a form shows).
    /// - Complexity: O(number's length).
    public static func check(kind: Kind, number raw: String) -> Result<IdentityDocument, IdentityProblem> {
        let number = normalized(raw)
        if number.isEmpty { return .failure(.empty) }
        switch kind {
        case .idCard:
            let chars = Array(number.unicodeScalars)
            guard chars.count == 18 else { return .failure(.length(expected: "18", got: chars.count)) }
            guard chars[..<17].allSatisfy(isDigit), isDigit(chars[17]) || chars[17] == "X" else {
                return .failure(.characters("17 digits then a digit or X"))
            }
            guard plausibleBirthDate(chars[6..<14].map { Int($0.value) - 48 }) else { return .failure(.birthDate) }
            let expected = checkCharacter(chars[..<17].map { Int($0.value) - 48 })
            guard chars[17] == expected else { return .failure(.checkDigit(expected: Character(expected), got: Character(chars[17]))) }
        case .passport:
            guard (5...17).contains(number.count) else { return .failure(.length(expected: "5 to 17", got: number.count)) }
            guard number.unicodeScalars.allSatisfy({ isDigit($0) || isLatinCapital($0) }), number.unicodeScalars.contains(where: isDigit) else {
                return .failure(.characters("letters and digits, at least one digit"))
            }
        case .hkMacauPermit:
            let chars = Array(number.unicodeScalars)
            guard chars.count == 9 || chars.count == 11 else { return .failure(.length(expected: "9 or 11", got: chars.count)) }
            guard chars[0] == "H" || chars[0] == "M", chars.dropFirst().allSatisfy(isDigit) else {
                return .failure(.characters("H or M then 8 or 10 digits"))
            }
        case .taiwanPermit:
            let chars = Array(number.unicodeScalars)
            guard chars.count == 8 || chars.count == 10 else { return .failure(.length(expected: "8 or 10", got: chars.count)) }
            let ok = chars.count == 8 ? chars.allSatisfy(isDigit) : chars.allSatisfy { isDigit($0) || isLatinCapital($0) }
            guard ok else { return .failure(.characters(chars.count == 8 ? "8 digits" : "10 letters and digits")) }
        case .militaryID:
            guard number.count <= 20 else { return .failure(.length(expected: "at most 20", got: number.count)) }
            guard let mark = number.range(of: "字第"), number.hasSuffix("号") else { return .failure(.characters("like 南字第12345678号")) }
            let unit = number[..<mark.lowerBound], digits = number[mark.upperBound..<number.index(before: number.endIndex)]
            guard (1...4).contains(unit.count), unit.unicodeScalars.allSatisfy(isHan),
                (4...10).contains(digits.count), digits.unicodeScalars.allSatisfy(isDigit)
            else { return .failure(.characters("like 南字第12345678号")) }
        }
        return .success(IdentityDocument(kind: kind, number: number))
    }

    /// What the lookups key: the type and the number (`idCard:11010519491231002X`).
    public var canonical: String { kind.rawValue + ":" + number }

    /// The number as shown everywhere (`110***********1234`): the first three and last four of an ID
    /// card (the region and the tail, as Chinese platforms print it), fewer of a shorter document.
    public var masked: String { Self.mask(number) }

    /// `number` masked: its first `k` and last `t` characters kept, `k + t` at most half of it.
    public static func mask(_ number: String) -> String {
        // A normalized number is ASCII: masked by its bytes (Characters cost a grapheme walk each).
        if number.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = Array(number.utf8)
            let (head, tail) = bytes.count >= 15 ? (3, 4) : bytes.count >= 8 ? (2, 2) : (1, 1)
            guard bytes.count > head + tail else { return String(repeating: "*", count: bytes.count) }
            var out = bytes
            for k in head..<(bytes.count - tail) { out[k] = 42 }
            return String(decoding: out, as: UTF8.self)
        }
        let chars = Array(number)
        let (head, tail) = chars.count >= 15 ? (3, 4) : chars.count >= 8 ? (2, 2) : (1, 1)
        guard chars.count > head + tail else { return String(repeating: "*", count: chars.count) }
        return String(chars[..<head]) + String(repeating: "*", count: chars.count - head - tail) + String(chars[(chars.count - tail)...])
    }

    // MARK: - The rules

    /// Half-width, upper case, without white space: `１１０１ ０５…ｘ` and `110105…X` are one number.
    public static func normalized(_ raw: String) -> String {
        // Nearly every number comes as plain ASCII letters and digits: kept as it is, upper-cased,
        // without looking up Unicode properties (a third of checking an attendee).
        if raw.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }) {
            return raw.utf8.contains(where: { $0 >= 97 }) ? String(decoding: raw.utf8.map { $0 >= 97 ? $0 - 32 : $0 }, as: UTF8.self) : raw
        }
        var out = String.UnicodeScalarView()
        for s in raw.unicodeScalars {
            if s.properties.isWhitespace || s == "-" { continue }
            // Full-width ASCII (U+FF01…U+FF5E) to its half-width twin.
            let v = (0xFF01...0xFF5E).contains(s.value) ? s.value - 0xFEE0 : s.value
            let half = Unicode.Scalar(v) ?? s
            out.append(("a"..."z").contains(half) ? Unicode.Scalar(half.value - 32)! : half)
        }
        return String(out)
    }

    /// GB 11643's check character of the first 17 digits: the weighted sum mod 11 indexes `10X98765432`.
    public static func checkCharacter(_ digits: [Int]) -> Unicode.Scalar {
        let weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
        let sum = zip(digits, weights).reduce(0) { $0 + $1.0 * $1.1 }
        return Array("10X98765432".unicodeScalars)[sum % 11]
    }

    /// A birth date YYYYMMDD from 1900 on, with a real month and day.
    static func plausibleBirthDate(_ d: [Int]) -> Bool {
        let year = d[0] * 1000 + d[1] * 100 + d[2] * 10 + d[3], month = d[4] * 10 + d[5], day = d[6] * 10 + d[7]
        guard year >= 1900, year <= 2100, (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }

    static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
    static func isLatinCapital(_ s: Unicode.Scalar) -> Bool { ("A"..."Z").contains(s) }
    static func isHan(_ s: Unicode.Scalar) -> Bool { (0x4E00...0x9FFF).contains(s.value) }
}

/// Why a number is not a document of its type (each says what was expected).
public enum IdentityProblem: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case length(expected: String, got: Int)
    case characters(String)
    case birthDate
    case checkDigit(expected: Character, got: Character)

    public var description: String {
        switch self {
        case .empty: "no number given"
        case .length(let expected, let got): "expected \(expected) characters, got \(got)"
        case .characters(let shape): "expected \(shape)"
        case .birthDate: "characters 7 to 14 are not a birth date (YYYYMMDD)"
        case .checkDigit(let expected, let got): "the check character is \(got), this number's is \(expected): a digit is mistyped"
        }
    }
}

/// A person's name as shown everywhere: `王*明`, `王*`, `J*** S****`-like for Latin names (first and last
/// letter of the whole name kept).
public enum PersonName {
    /// The longest name a real-name sale takes (a passport's full name with spaces).
    public static let maximumLength = 60

    /// - Complexity: O(name's length).
    public static func masked(_ name: String) -> String {
        let chars = Array(trimmed(name))
        switch chars.count {
        case 0: return ""
        case 1: return "*"
        case 2: return String(chars[0]) + "*"
        default:
            var out = String(chars[0])
            for c in chars[1..<(chars.count - 1)] { out.append(c == " " ? " " : "*") }
            out.append(chars[chars.count - 1])
            return out
        }
    }

    /// Why `name` cannot be an attendee's name (nil: it can): 1 to 60 characters of letters, marks,
    /// spaces, `·` (the middle dot of transliterated names) and `.-'`.
    public static func problem(_ name: String) -> String? {
        let trimmed = trimmed(name)
        if trimmed.isEmpty { return "a name is needed" }
        // Counted in scalars first: at most one Character each, so a name within the limit by them is
        // within it by Characters too (walking graphemes only for the rare long one).
        if trimmed.unicodeScalars.count > maximumLength, trimmed.count > maximumLength {
            return "at most \(maximumLength) characters, got \(trimmed.count)"
        }
        for s in trimmed.unicodeScalars {
            if isLetter(s) || allowed.contains(s) { continue }
            return "letters only (a name has no \"\(Character(s))\")"
        }
        return nil
    }

    static let allowed: Set<Unicode.Scalar> = [" ", "·", "•", ".", "-", "'"]

    /// Whether `s` is a letter: ASCII and the CJK ideographs answered at once, the rest by Unicode's
    /// Alphabetic property (a table lookup that was most of checking a Chinese name).
    static func isLetter(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x41...0x5A, 0x61...0x7A, 0x4E00...0x9FFF, 0x3400...0x4DBF: return true
        case 0...0x7F: return false
        default: return s.properties.isAlphabetic
        }
    }

    /// A tab or a space separator (Unicode's Zs: U+0020, U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F,
    /// U+3000, and U+200B, which Foundation's `.whitespaces` still counts), as Foundation has them,
    /// without a property lookup per scalar.
    static func isBlank(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x20, 0x09, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// `name` without the spaces and tabs around it (Unicode's white space too), as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` gives it, without bridging to NSString.
    public static func trimmed(_ name: String) -> String {
        let scalars = name.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isBlank($0) })!
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return name }
        return String(scalars[first...last])
    }
}
