/// A syntax error with the line and column where parsing stopped.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes. Strings are validated as UTF-8, nesting is bounded so no
/// input can overflow the stack, and duplicate keys in one object are an error (a seat with two `"x"`
/// members is a mistake, not a choice).
public struct JSONParser: Sendable {
    public static let maximumDepth = 256

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// - Complexity: O(n) in the length of the input.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParserState(buffer: buffer)
            // A UTF-8 byte order mark, as Windows editors save files (RFC 8259 section 8.1 lets a parser ignore it).
            if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { parser.position = 3 }
            do throws(JSONSyntaxError) {
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                if parser.position < buffer.count { throw parser.error("unexpected data after the document") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

struct JSONParserState {
    let buffer: UnsafeBufferPointer<UInt8>
    var position = 0
    // Members and elements are gathered on these shared stacks and copied out once, at their exact
    // size, when the container closes: no array grows element by element.
    var keyStack: [String] = []
    var valueStack: [JSONValue] = []
    var keyCache: [(bytes: [UInt8], string: String)] = []

    init(buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let end = min(offset ?? position, buffer.count)
        var line = 1, lineStart = 0
        for i in 0..<end where buffer[i] == 0x0A { line += 1; lineStart = i + 1 }
        // Columns count characters, not bytes, so a Chinese label does not shift the caret.
        var column = 1
        for i in lineStart..<end where buffer[i] & 0xC0 != 0x80 { column += 1 }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    mutating func skipWhitespace() {
        while position < buffer.count {
            let c = buffer[position]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { position += 1 } else { return }
        }
    }

    func describeByte(at offset: Int) -> String {
        guard offset < buffer.count else { return "end of input" }
        let c = buffer[offset]
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x" + String(c, radix: 16)
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard position < buffer.count else { throw error("unexpected end of input, expected a value") }
        switch buffer[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("expected a value, found \(describeByte(at: position))")
        }
    }

    mutating func expectLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= buffer.count else { throw error("unexpected end of input in a literal") }
        let p = word.utf8Start
        for i in 0..<count where buffer[position + i] != p[i] {
            throw error("invalid literal, expected \(word)")
        }
        position += count
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        position += 1
        skipWhitespace()
        if position < buffer.count && buffer[position] == UInt8(ascii: "}") { position += 1; return .object(JSONObject()) }
        let base = keyStack.count
        defer { keyStack.removeSubrange(base...); valueStack.removeSubrange(base...) }
        var seen: Set<String>? = nil
        while true {
            skipWhitespace()
            guard position < buffer.count, buffer[position] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describeByte(at: position))")
            }
            let keyOffset = position
            let key = try parseKey()
            // Small objects check duplicates linearly; large ones (a heat map keyed by seat) with a set.
            let members = keyStack.count - base
            if members < 16 {
                for k in base..<keyStack.count where keyStack[k] == key { throw error("duplicate member \"\(key)\"", at: keyOffset) }
            } else {
                if seen == nil { seen = Set(keyStack[base...]) }
                if !seen!.insert(key).inserted { throw error("duplicate member \"\(key)\"", at: keyOffset) }
            }
            skipWhitespace()
            guard position < buffer.count, buffer[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after member name, found \(describeByte(at: position))")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            keyStack.append(key)
            valueStack.append(value)
            skipWhitespace()
            guard position < buffer.count else { throw error("unexpected end of input, expected ',' or '}'") }
            if buffer[position] == UInt8(ascii: ",") { position += 1; continue }
            if buffer[position] == UInt8(ascii: "}") {
                position += 1
                return .object(JSONObject(keys: Array(keyStack[base...]), values: Array(valueStack[base...])))
            }
            throw error("expected ',' or '}' after object member, found \(describeByte(at: position))")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        position += 1
        skipWhitespace()
        if position < buffer.count && buffer[position] == UInt8(ascii: "]") { position += 1; return .array([]) }
        // Elements share the value stack with object members; keys are padded so both stay aligned.
        let base = valueStack.count
        defer { keyStack.removeSubrange(base...); valueStack.removeSubrange(base...) }
        while true {
            skipWhitespace()
            let value = try parseValue(depth: depth)
            keyStack.append("")
            valueStack.append(value)
            skipWhitespace()
            guard position < buffer.count else { throw error("unexpected end of input, expected ',' or ']'") }
            if buffer[position] == UInt8(ascii: ",") { position += 1; continue }
            if buffer[position] == UInt8(ascii: "]") { position += 1; return .array(Array(valueStack[base...])) }
            throw error("expected ',' or ']' after array element, found \(describeByte(at: position))")
        }
    }
}
