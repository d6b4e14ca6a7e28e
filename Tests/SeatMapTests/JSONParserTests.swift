import SeatJSON
import Testing
@testable import SeatMap

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let v = try JSONParser.parse(#"{"a":[1,-2.5,true,false,null,"x"],"b":{"c":"d"},"e":1e3}"#)
        let o = try #require(v.objectValue)
        #expect(o.keys == ["a", "b", "e"])
        #expect(
            o["a"]
                == .array([
                    .number(JSONNumber(double: 1, integer: 1)), .number(JSONNumber(double: -2.5, integer: nil)),
                    .bool(true), .bool(false), .null, .string("x"),
                ]))
        #expect(o["b"]?.objectValue?["c"] == .string("d"))
        #expect(o["e"]?.doubleValue == 1000)
        #expect(o["e"]?.intValue == 1000)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let v = try JSONParser.parse(#"["a\"b\\c\/d\n\t", "\u4e03\u6392", "\ud83d\ude00"]"#)
        #expect(v.arrayValue?.map(\.stringValue) == ["a\"b\\c/d\n\t", "七排", "😀"])
    }

    @Test func keepsChineseTextAsIs() throws {
        #expect(try JSONParser.parse(#""7排12座""#) == .string("7排12座"))
    }

    @Test(arguments: [
        ("0.1", 0.1), ("33.30", 33.3), ("-7.25", -7.25), ("123456789.123456", 123456789.123456),
        ("1.5e2", 150.0), ("12345678901234567890", 12345678901234567890.0), ("0.000001", 0.000001),
    ])
    func numbersAreCorrectlyRounded(text: String, expected: Double) throws {
        #expect(try JSONParser.parse(text).doubleValue == expected)
    }

    @Test func integersKeepTheirIntegerValueButFractionsDoNot() throws {
        #expect(try JSONParser.parse("12").intValue == 12)
        #expect(try JSONParser.parse("12.5").intValue == nil)
        #expect(try JSONParser.parse("12.0").intValue == 12)
    }

    @Test(arguments: [
        ("{\"a\":1,}", 1, 8, "expected a member name"),
        ("[1,2", 1, 5, "unexpected end of input"),
        ("{\n  \"a\": tru\n}", 2, 8, "invalid literal"),
        ("{\"a\":1,\"a\":2}", 1, 8, "duplicate member \"a\""),
        ("[01]", 1, 2, "leading zeros"),
        ("\"abc", 1, 1, "unterminated string"),
        ("[1] x", 1, 5, "unexpected data after the document"),
        ("\"\\x\"", 1, 2, "invalid escape"),
        ("\"\\ud800\"", 1, 8, "lone high surrogate"),
        ("{\"排\":[1,}", 1, 9, "expected a value"),
    ])
    func syntaxErrorsSayWhereAndWhat(text: String, line: Int, column: Int, message: String) {
        #expect {
            _ = try JSONParser.parse(text)
        } throws: { error in
            guard let e = error as? JSONSyntaxError else { return false }
            return e.line == line && e.column == column && e.message.contains(message)
        }
    }

    @Test func rejectsInvalidUTF8InStrings() {
        let bytes: [UInt8] = Array("[\"ab".utf8) + [0xFF, 0xFE] + Array("\"]".utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
        do { _ = try JSONParser.parse(bytes) } catch { #expect(error.message == "invalid UTF-8 in a string") }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        do {
            _ = try JSONParser.parse(deep)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("nesting deeper than"))
        }
    }

    @Test func manyMembersStillCatchDuplicates() {
        var text = "{"
        for i in 0..<100 { text += "\"k\(i)\":\(i)," }
        text += "\"k42\":0}"
        do {
            _ = try JSONParser.parse(text)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "duplicate member \"k42\"")
        }
    }

    @Test func writerEscapesAndParserReadsBack() throws {
        var w = JSONWriter()
        w.string("q\"b\\s\n\u{1}排")
        #expect(w.text == #""q\"b\\s\n\u0001排""#)
        #expect(try JSONParser.parse(w.bytes) == .string("q\"b\\s\n\u{1}排"))
    }
}
