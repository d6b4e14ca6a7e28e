import Foundation

extension JSONParserState {
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position + 1
        var i = start
        // Fast path: no escapes, so the bytes between the quotes are the string.
        while i < buffer.count {
            let c = buffer[i]
            if c == UInt8(ascii: "\"") {
                position = i + 1
                return try makeString(UnsafeBufferPointer(rebasing: buffer[start..<i]), at: start)
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("control character in a string (escape it)", at: i) }
            i += 1
        }
        guard i < buffer.count else { throw error("unterminated string", at: position) }
        var bytes = Array(UnsafeBufferPointer(rebasing: buffer[start..<i]))
        while i < buffer.count {
            let c = buffer[i]
            if c == UInt8(ascii: "\"") {
                position = i + 1
                return try bytes.withUnsafeBufferPointer { b throws(JSONSyntaxError) in try makeString(b, at: start) }
            }
            if c < 0x20 { throw error("control character in a string (escape it)", at: i) }
            if c != UInt8(ascii: "\\") { bytes.append(c); i += 1; continue }
            guard i + 1 < buffer.count else { break }
            let e = buffer[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""): bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C)
            case UInt8(ascii: "/"): bytes.append(0x2F)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(at: i)
                i += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 6 <= buffer.count, buffer[i] == UInt8(ascii: "\\"), buffer[i + 1] == UInt8(ascii: "u") else {
                        throw error("lone high surrogate in \\u escape", at: i)
                    }
                    let low = try hex4(at: i + 2)
                    guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape", at: i) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("lone low surrogate in \\u escape", at: i - 6)
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape", at: i - 6) }
                bytes.append(contentsOf: String(Character(u)).utf8)
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: i - 2)
            }
        }
        throw error("unterminated string", at: position)
    }

    func makeString(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONSyntaxError) -> String {
        // ASCII needs no validation; anything else is decoded and must come back byte for byte.
        var ascii: UInt8 = 0
        for b in bytes { ascii |= b }
        let s = String(decoding: bytes, as: UTF8.self)
        if ascii < 0x80 || s.utf8.elementsEqual(bytes) { return s }
        throw error("invalid UTF-8 in a string", at: offset)
    }

    /// Member names repeat on every seat; the last few are kept and reused instead of decoded again.
    mutating func parseKey() throws(JSONSyntaxError) -> String {
        let start = position + 1
        var i = start
        while i < buffer.count, buffer[i] != UInt8(ascii: "\""), buffer[i] != UInt8(ascii: "\\"), buffer[i] >= 0x20 { i += 1 }
        if i < buffer.count, buffer[i] == UInt8(ascii: "\""), i - start <= 16 {
            let length = i - start
            for k in keyCache.indices where keyCache[k].bytes.count == length {
                let match = keyCache[k].bytes.withUnsafeBufferPointer { cached in
                    memcmp(cached.baseAddress!, buffer.baseAddress! + start, length) == 0
                }
                if match { position = i + 1; return keyCache[k].string }
            }
            let s = try parseString()
            if keyCache.count < 32 { keyCache.append((Array(buffer[start..<i]), s)) }
            return s
        }
        return try parseString()
    }

    func hex4(at offset: Int) throws(JSONSyntaxError) -> UInt32 {
        guard offset + 4 <= buffer.count else { throw error("truncated \\u escape", at: offset) }
        var value: UInt32 = 0
        for k in 0..<4 {
            let c = buffer[offset + k]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape", at: offset + k)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Exact powers of ten: a mantissa below 2^53 divided by one of these is correctly rounded.
    static let exactPowersOfTen: [Double] = (0...22).map { k in
        var p = 1.0
        for _ in 0..<k { p *= 10 }
        return p
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = position
        var i = position
        var negative = false
        if buffer[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        guard i < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[i]) else {
            throw error("expected a digit", at: i)
        }
        var mantissa: UInt64 = 0
        var digits = 0
        if buffer[i] == UInt8(ascii: "0") {
            i += 1
            if i < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[i]) {
                throw error("leading zeros are not allowed", at: start)
            }
        } else {
            while i < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[i]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(buffer[i] - UInt8(ascii: "0")) }
                digits += 1
                i += 1
            }
        }
        var fractionDigits = 0
        var isInteger = true
        if i < buffer.count, buffer[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[i]) else {
                throw error("expected a digit after the decimal point", at: i)
            }
            while i < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[i]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(buffer[i] - UInt8(ascii: "0")); fractionDigits += 1 }
                if mantissa != 0 || digits > 0 { digits += 1 }
                i += 1
            }
        }
        var exponent = 0

        if i < buffer.count, buffer[i] == UInt8(ascii: "e") || buffer[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            var expNegative = false
            if i < buffer.count, buffer[i] == UInt8(ascii: "+") || buffer[i] == UInt8(ascii: "-") {
                expNegative = buffer[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[i]) else {
                throw error("expected a digit in the exponent", at: i)
            }
            while i < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[i]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(buffer[i] - UInt8(ascii: "0")) }
                i += 1
            }
            if expNegative { exponent = -exponent }
        }
        position = i
        if isInteger && digits <= 18 {
            let value = negative ? -Int64(mantissa) : Int64(mantissa)
            return JSONNumber(double: Double(value), integer: value)
        }
        let scale = fractionDigits - exponent
        if digits <= 15, scale >= 0, scale <= 22 {
            let magnitude = Double(mantissa) / Self.exactPowersOfTen[scale]
            return JSONNumber(double: negative ? -magnitude : magnitude, integer: nil)
        }
        // Rare shapes (huge integers, long fractions, exponents) go through the correctly rounded library parser.
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<i]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number out of range", at: start) }
        return JSONNumber(double: value, integer: nil)
    }
}
