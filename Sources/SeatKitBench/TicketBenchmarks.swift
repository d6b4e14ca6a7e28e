import Foundation
import SeatSecrets
import SeatTickets

/// Tickets (#30): signing a sold seat's code and checking one with the show's public key, each beside
/// the HMAC-SHA-256 that signs a waiting room's admission (the cheapest signature the server makes).
enum TicketBenchmarks {
    static func run(report: Report) {
        let issuer = TicketIssuer(secret: Array("bench-ticket-secret-0123456789".utf8))
        let key = issuer.key(show: "imax-2026-12-24-1930"), publicKey = key.publicKey
        var k = 0
        let codes = (0..<256).map { issuer.code(show: "imax-2026-12-24-1930", seat: $0 * 37, seatName: "12-8", sale: "h_0123456789abcdef\($0)") }
        let sign = measure {
            k = (k + 1) & 255
            consume(issuer.code(show: "imax-2026-12-24-1930", seat: k * 37, seatName: "12-8", sale: "h_0123456789abcdef\(k)").utf8.count)
        }
        let verify = measure {
            k = (k + 1) & 255
            consume((try? TicketCode.verified(codes[k], publicKey: publicKey)) != nil)
        }
        let admissionKey = Array("bench-queue-key-0123456789".utf8)
        let hmac = measure {
            k = (k + 1) & 255
            consume(HMACSHA256.code(key: admissionKey, message: Array("admission\u{1F}show\u{1F}\(k)\u{1F}1796124600000".utf8)).count)
        }
        report.row(
            "sign a ticket's code (Ed25519 by libcrypto, base 32) vs an admission's HMAC-SHA-256",
            ours: String(format: "%@, %.0f a second", formatTime(sign), 1 / sign),
            baseline: formatTime(hmac), ratio: String(format: "%.1f×", sign / hmac), goal: "report")
        report.row(
            "check a ticket's code with the show's public key alone (what a scanner does offline) vs an admission's HMAC-SHA-256",
            ours: String(format: "%@, %.0f a second", formatTime(verify), 1 / verify), baseline: formatTime(hmac),
            ratio: String(format: "%.1f×", verify / hmac),
            goal: "report")
    }
}
