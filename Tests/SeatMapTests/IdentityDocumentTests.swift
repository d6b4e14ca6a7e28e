import Foundation
import SeatJSON
import SeatKitTestSupport
import Testing

@testable import SeatMap

/// #54: documents checked as the notice's real-name sale needs them, and the show's policy read strictly.
@Suite struct IdentityDocumentTests {
    /// GB 11643's own example and numbers made with its weights: every single-digit change is caught.
    @Test func idCardCheckCharacterCatchesEveryMistypedDigit() throws {
        #expect(IdentityDocument.check(kind: .idCard, number: "11010519491231002X").isSuccess)
        #expect(IdentityDocument.check(kind: .idCard, number: "11010519491231002x").map(\.number) == .success("11010519491231002X"))
        #expect(IdentityDocument.check(kind: .idCard, number: " １１０１０５ 1949 1231 002X ").isSuccess, "full-width digits and spaces")
        let valid = "110105199001010010"
        #expect(IdentityDocument.check(kind: .idCard, number: valid).isSuccess)
        var caught = 0
        for position in 0..<17 {
            for digit in "0123456789" where Array(valid)[position] != digit {
                var chars = Array(valid)
                chars[position] = digit
                if case .failure = IdentityDocument.check(kind: .idCard, number: String(chars)) { caught += 1 }
            }
        }
        #expect(caught == 17 * 9, "every single wrong digit is refused (by its check or its birth date)")
        #expect(IdentityDocument.check(kind: .idCard, number: "110105199001010018") == .failure(.checkDigit(expected: "0", got: "8")))
        #expect(IdentityDocument.check(kind: .idCard, number: "11010519900101001") == .failure(.length(expected: "18", got: 17)))
        #expect(IdentityDocument.check(kind: .idCard, number: "1101051990010100A0") == .failure(.characters("17 digits then a digit or X")))
        #expect(IdentityDocument.check(kind: .idCard, number: "110105199013010010") == .failure(.birthDate))
        #expect(IdentityDocument.check(kind: .idCard, number: "") == .failure(.empty))
    }

    @Test func otherDocumentsByTheirShape() {
        #expect(IdentityDocument.check(kind: .passport, number: "E12345678").isSuccess)
        #expect(IdentityDocument.check(kind: .passport, number: "ABCDEFG") == .failure(.characters("letters and digits, at least one digit")))
        #expect(IdentityDocument.check(kind: .passport, number: "E1") == .failure(.length(expected: "5 to 17", got: 2)))
        #expect(IdentityDocument.check(kind: .hkMacauPermit, number: "H12345678").isSuccess)
        #expect(IdentityDocument.check(kind: .hkMacauPermit, number: "X12345678").isFailure)
        #expect(IdentityDocument.check(kind: .taiwanPermit, number: "12345678").isSuccess)
        #expect(IdentityDocument.check(kind: .taiwanPermit, number: "1234567A").isFailure)
        #expect(IdentityDocument.check(kind: .militaryID, number: "南字第12345678号").isSuccess)
        #expect(IdentityDocument.check(kind: .militaryID, number: "12345678").isFailure)
    }

    @Test func masksKeepOnlyTheEnds() {
        #expect(IdentityDocument.mask("11010519491231002X") == "110***********002X")
        #expect(IdentityDocument.mask("E12345678") == "E1*****78")
        #expect(PersonName.masked("王小明") == "王*明")
        #expect(PersonName.masked("王明") == "王*")
        #expect(PersonName.masked("欧阳娜娜") == "欧**娜")
        #expect(PersonName.masked("Anna Schmidt") == "A*** ******t")
        #expect(PersonName.problem("王小明") == nil && PersonName.problem("Jean-Luc O'Neil") == nil && PersonName.problem("阿卜杜·热合曼") == nil)
        #expect(PersonName.problem("  ") != nil && PersonName.problem("Bob3") != nil)
    }

    @Test func showPolicyIsReadStrictlyAndWrittenWhole() throws {
        func read(_ json: String) -> (RealNamePolicy?, [String]) {
            var log = ProblemLog()
            let value = try! JSONParser.parse(Array(json.utf8))
            return (RealNamePolicy(jsonValue: value, at: "details.realName", into: &log), log.problems.map(\.description))
        }
        #expect(read(#""perTicket""#).0?.mode == .perTicket)
        #expect(read(#""perOrder""#).0?.maxTicketsPerId == 6)
        let (full, none) = read(#"{"mode":"perTicket","idTypes":["passport","idCard"],"maxTicketsPerPhone":4,"tour":"jay-2026"}"#)
        #expect(none.isEmpty && full?.idTypes == [.idCard, .passport] && full?.tour == "jay-2026" && full?.maxTicketsPerPhone == 4)
        var w = JSONWriter()
        full!.write(into: &w)
        #expect(
            w.text
                == #"{"mode":"perTicket","idTypes":["idCard","passport"],"maxTicketsPerId":1,"maxTicketsPerPhone":4,"tour":"jay-2026","bindByMinutes":1440,"transferMinutes":120,"transfers":1}"#
        )
        #expect(read(#""everyone""#).1 == [#"details.realName: expected none, perOrder or perTicket, got "everyone""#])
        #expect(read(#"{"mode":"perTicket","idTypes":["idCard","library card"]}"#).1.first?.hasPrefix("details.realName.idTypes[1]") == true)
        // Listed twice (six items where the schema allows five): named, not quietly merged.
        let twice = read(#"{"mode":"none","idTypes":["idCard","passport","idCard"]}"#).1
        #expect(twice.first?.hasPrefix("details.realName.idTypes[2]") == true && twice.first?.contains("listed twice") == true, "\(twice)")
        #expect(read(#"{"mode":"perTicket","maxTicketsPerId":0}"#).1.first?.hasPrefix("details.realName.maxTicketsPerId") == true)
        #expect(read(#"{"idTypes":["idCard"]}"#).1 == ["details.realName.mode: give none, perOrder or perTicket"])
    }
}

extension IdentityDocumentTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The buyer's page checks an ID card number as it is typed (js/attendee-pick.js); this writes what it
    /// must make of numbers Swift checked (`Tests/Web/Vectors/identity/idcards.json`): valid ones as typed in
    /// many ways, every single-digit slip of one, wrong lengths, letters and impossible birth dates.
    @Test func theIdCardVectorsAreWritten() throws {
        var typed = ["11010519491231002X", "11010519491231002x", " 110105 19491231 002X ", "１１０１０５１９４９１２３１００２Ｘ", "110105-19491231-002X"]
        let valid = "110105199001010010"
        for position in [0, 6, 10, 16, 17] {
            var chars = Array(valid)
            chars[position] = chars[position] == "9" ? "1" : "9"
            typed.append(String(chars))
        }
        typed += [
            valid, "44030419851111271X", "11010519900101001", "1101051990010100100", "1101051990010100A0", "110105199013010010", "110105190002290018", "",
        ]
        let cases = typed.map { text -> String in
            let verdict: String
            switch IdentityDocument.check(kind: .idCard, number: text) {
            case .success: verdict = "null"
            case .failure(.checkDigit(let expected, _)): verdict = #"{"problem":"checkDigit","expected":"\#(expected)"}"#
            case .failure(.length), .failure(.empty): verdict = #"{"problem":"length"}"#
            case .failure(.characters): verdict = #"{"problem":"characters"}"#
            case .failure(.birthDate): verdict = #"{"problem":"birthDate"}"#
            }
            var w = JSONWriter()
            w.string(text)
            return #"{"typed":\#(w.text),"normalized":"\#(IdentityDocument.normalized(text))","verdict":\#(verdict)}"#
        }
        assertSnapshot(
            "{\"cases\":[\n" + cases.joined(separator: ",\n") + "\n]}\n", named: "idcards.json",
            in: Self.repo.appendingPathComponent("Tests/Web/Vectors/identity"))
    }
}

/// The fast paths a hold of four attendees takes (#54's bench: checking them was a fifth of the run)
/// answer exactly as the general rules they stand in for.
@Suite struct AttendeeFastPathTests {
    @Test func namesTrimAsFoundationDoes() {
        let names = [
            "王小明", " 王小明 ", "\t王小明\t", "\u{3000}王小明\u{3000}", "\u{00A0}Li Lei\u{00A0}", "  ", "", "Jean-Luc  Picard ", "\n王\n",
            "阿卜杜·热合曼", " a ", "\u{2003}x\u{2009}",
        ]
        for name in names {
            #expect(PersonName.trimmed(name) == name.trimmingCharacters(in: .whitespaces), "\(name.unicodeScalars.map { $0.value })")
        }
    }

    @Test func blanksAreFoundationsWhitespaces() {
        for v in UInt32(0)...0x10FFFF {
            guard let s = Unicode.Scalar(v) else { continue }
            #expect(PersonName.isBlank(s) == CharacterSet.whitespaces.contains(s), "U+\(String(v, radix: 16))")
        }
    }

    @Test func lettersAreUnicodesAlphabeticOnes() {
        for v in UInt32(0)...0xFFFF {
            guard let s = Unicode.Scalar(v) else { continue }
            #expect(PersonName.isLetter(s) == s.properties.isAlphabetic, "U+\(String(v, radix: 16))")
        }
    }

    @Test func plainNumbersNormalizeAndMaskAsTheGeneralRulesDo() {
        /// The general rules, as they were before the ASCII paths.
        func normalized(_ raw: String) -> String {
            var out = String.UnicodeScalarView()
            for s in raw.unicodeScalars {
                if s.properties.isWhitespace || s == "-" { continue }
                let v = (0xFF01...0xFF5E).contains(s.value) ? s.value - 0xFEE0 : s.value
                let half = Unicode.Scalar(v) ?? s
                out.append(("a"..."z").contains(half) ? Unicode.Scalar(half.value - 32)! : half)
            }
            return String(out)
        }
        func mask(_ number: String) -> String {
            let chars = Array(number)
            let (head, tail) = chars.count >= 15 ? (3, 4) : chars.count >= 8 ? (2, 2) : (1, 1)
            guard chars.count > head + tail else { return String(repeating: "*", count: chars.count) }
            return String(chars[..<head]) + String(repeating: "*", count: chars.count - head - tail) + String(chars[(chars.count - tail)...])
        }
        let numbers = ["11010519900307123x", "110105199003071234", "e12345678", "H12345678", "ab", "a", "Z9", "12345678901234567890", "g1234567"]
        for n in numbers {
            #expect(IdentityDocument.normalized(n) == normalized(n), "\(n)")
            #expect(IdentityDocument.mask(n) == mask(n), "\(n)")
            #expect(IdentityDocument.mask(IdentityDocument.normalized(n)) == mask(normalized(n)), "\(n)")
        }
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
    var isFailure: Bool { !isSuccess }
}
