import Foundation
import SeatKitTestSupport
import SeatSecrets
import Testing

@testable import SeatTickets

/// The door page checks codes offline with js/ticket.js; this writes what it must make of codes the
/// Swift issuer signed (`Tests/Web/Vectors/tickets/tickets.json`), so the two never drift: each code,
/// the ticket it carries, and whether it verifies; a changed character, a cut, another show's key.
@Suite struct WebTicketVectorsTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theIssuerWritesTheTicketVectors() throws {
        #if canImport(CryptoKit)
        // CryptoKit's signatures are randomized: the vectors are written where libcrypto signs.
        return
        #else
        let issuer = TicketIssuer(secret: Array("web-vectors-secret-0123456789".utf8))
        let shows = ["show", "imax-2026-12-24-1930", "影城-7"]
        var cases: [String] = []
        func add(_ code: String, key show: String, _ expected: Result<TicketCode?, TicketCodeError>) {
            let publicKey = SHA256.hex(issuer.key(show: show).publicKey)
            let outcome: String
            switch expected {
            case .success(let t?):
                let binding = t.binding.map { "\"\(SHA256.hex($0))\"" } ?? "null"
                outcome =
                    #""ticket":{"show":"\#(t.show)","seat":\#(t.seat),"seatName":"\#(t.seatName)","id":"\#(t.idHex)","binding":\#(binding),"attendee":"\#(t.attendee)"}"#
            case .success(nil): outcome = #""ticket":null"#
            case .failure(let e): outcome = #""error":"\#(Self.kind(e))""#
            }
            cases.append(#"{"code":"\#(code)","publicKey":"\#(publicKey)",\#(outcome)}"#)
        }
        func expected(_ code: String, key show: String) -> Result<TicketCode?, TicketCodeError> {
            Result { () throws(TicketCodeError) in try TicketCode.verified(code, publicKey: issuer.key(show: show).publicKey) }
        }
        for (k, show) in shows.enumerated() {
            for seat in [0, 7, 127, 128, 16_383, 99_999] {
                let code = issuer.code(show: show, seat: seat, seatName: seat == 0 ? "" : "\(seat / 20 + 1)排\(seat % 20 + 1)座", sale: "h_\(k)_\(seat)")
                add(code, key: show, expected(code, key: show))
            }
        }
        let code = issuer.code(show: "show", seat: 42, seatName: "3-3", sale: "h_42")
        add(code.lowercased(), key: "show", expected(code.lowercased(), key: "show"))
        add(code, key: "imax-2026-12-24-1930", expected(code, key: "imax-2026-12-24-1930"))
        var chars = Array(code)
        for k in [3, 10, 40, 100, chars.count - 1] {
            let original = chars[k]
            chars[k] = original == "A" ? "B" : "A"
            add(String(chars), key: "show", expected(String(chars), key: "show"))
            chars[k] = original
        }
        for cut in [1, 8, 70, code.count - 5] { add(String(code.dropLast(cut)), key: "show", expected(String(code.dropLast(cut)), key: "show")) }
        add("SK1", key: "show", expected("SK1", key: "show"))
        add("QR-12345", key: "show", expected("QR-12345", key: "show"))
        // Real-name tickets (format 2): the attendee's door binding and masked name ride in the code.
        let doorKey = Self.doorKey
        for (seat, document, name) in [(3, "idCard:11010519491231002X", "王*明"), (200, "passport:E12345678", "A*** ******t")] {
            let bound = TicketCode(
                show: "show", seat: seat, id: TicketCode.id(sale: "h_rn", seat: seat, generation: seat == 3 ? 0 : 2), seatName: "\(seat)座",
                binding: TicketCode.binding(key: doorKey, document: document), attendee: name
            ).signed(by: issuer.key(show: "show"))
            add(bound, key: "show", expected(bound, key: "show"))
        }
        var other = Base32.decode(code.dropFirst(3))!
        other[0] = 3
        let otherFormat = "SK1" + Base32.encode(other)
        add(otherFormat, key: "show", expected(otherFormat, key: "show"))
        let text = "{\"cases\":[\n" + cases.joined(separator: ",\n") + "\n]}\n"
        assertSnapshot(text, named: "tickets.json", in: Self.repo.appendingPathComponent("Tests/Web/Vectors/tickets"))
        #endif
    }

    static let doorKey = Array(SHA256.hash("web-vectors-door-key"))

    /// A JSON string of `text` (backslash, quote and line ends escaped: all the vectors' texts need).
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// What a door typed or read against a ticket's binding: the same document however it is typed
    /// (spaces, a lower-case x, full-width digits) matches, another does not (`door.json`).
    @Test func theDoorWritesTheDocumentVectors() throws {
        let binding = SHA256.hex(TicketCode.binding(key: Self.doorKey, document: "idCard:11010519491231002X"))
        let passport = SHA256.hex(TicketCode.binding(key: Self.doorKey, document: "passport:E12345678"))
        let cases: [(String, String, Bool)] = [
            (binding, "11010519491231002X", true), (binding, "11010519491231002x", true), (binding, " 110105 19491231 002X\n", true),
            (binding, "１１０１０５１９４９１２３１００２Ｘ", true), (binding, "110105194912310021", false), (binding, "E12345678", false),
            (passport, "e12345678", true), (passport, "E1234567", false),
        ]
        let lines = cases.map { #"{"binding":"\#($0.0)","typed":\#(Self.quoted($0.1)),"matches":\#($0.2)}"# }
        let text = "{\"doorKey\":\"\(SHA256.hex(Self.doorKey))\",\"cases\":[\n" + lines.joined(separator: ",\n") + "\n]}\n"
        assertSnapshot(text, named: "door.json", in: Self.repo.appendingPathComponent("Tests/Web/Vectors/tickets"))
    }

    static func kind(_ e: TicketCodeError) -> String {
        switch e {
        case .notATicket: "notATicket"
        case .truncated: "truncated"
        case .unknownFormat: "unknownFormat"
        }
    }
}
