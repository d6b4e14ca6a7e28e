import Foundation
import LoopbackHTTP
import SeatPayments
import SeatServerTestSupport
import Testing

/// With a payment provider configured, a buyer cannot buy by asking: `confirm` answers 402 and changes
/// nothing (the seats stay held, the hold stays the buyer's). A hold that costs nothing, and a server
/// taking cash only, confirm as before.
@Suite(.serialized) struct PaymentRequiredTests {
    static func settings(_ text: String) throws -> PaymentSettings { try PaymentSettings(file: text, path: "payments.txt") }
    static let stripe = "stripe secretKey=sk_test_51Hx9AbCdEfGhIjKl webhookSecret=whsec_q8K2mZpR4tY7uW1x api=http://127.0.0.1:9"

    @Test(arguments: StoreBackend.available) func aBuyerCannotConfirmWithoutPaying(backend: StoreBackend) throws {
        let payments = try Self.settings(Self.stripe)
        let server = try TestServer(backend: backend) { $0.payments = payments }
        let c = try server.connection()
        let token = try #require(try hold(c, ["7-1", "7-2"]).string("token"))
        let refused = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"FREE-1"}"#)
        #expect(refused.status == 402 && refused.headers["content-type"] == "application/problem+json", "\(refused.text)")
        #expect(refused.string("type") == "/problems/payment-required" && refused.string("detail")?.contains("(stripe)") == true)
        // Nothing changed: still held, still the buyer's, nothing sold.
        let still = try c.request("GET", "/v1/holds/\(token)")
        #expect(still.status == 200 && still.string("state") == "active" && still.string("orderRef") == nil)
        let counts = try server.availability().counts
        #expect(counts.held == 2 && counts.sold == 0)
        // An Idempotency-Key changes nothing of it either.
        let keyed = try c.request(
            "POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"FREE-1"}"#, headers: [("Idempotency-Key", String(repeating: "k", count: 32))])
        #expect(try keyed.status == 402 && server.availability().counts.sold == 0)
    }

    @Test(arguments: StoreBackend.available) func aFreeHoldAndACashOnlyServerConfirmAsBefore(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend) { $0.payments = try! Self.settings(Self.stripe) }
        let c = try server.connection()
        // The seeded hall, priced nothing (a guest screening).
        let show = try c.request(
            "POST", "/v1/shows",
            json: #"{"id":"free","venueId":"cinema-hall-3","startsAt":"2099-12-02T19:30:00+08:00","#
                + #""prices":{"categories":{"standard":"0","vip":"0","couple":"0"}}}"#,
            headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(show.status == 201, "\(show.text)")
        let free = try #require(try hold(c, ["7-1"], show: "free").string("token"))
        let sold = try c.request("POST", "/v1/holds/\(free)/confirm", json: #"{"orderRef":"GUEST-1"}"#)
        #expect(sold.status == 200 && sold.string("state") == "confirmed", "\(sold.text)")

        let cashOnly = try TestServer(backend: backend) { $0.payments = try! Self.settings("cash") }
        let d = try cashOnly.connection()
        let token = try #require(try hold(d, ["7-1"]).string("token"))
        #expect(try d.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"ORDER-1"}"#).status == 200)
    }
}
