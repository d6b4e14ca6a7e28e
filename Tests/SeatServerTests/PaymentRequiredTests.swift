import Foundation
import SeatDomain
import LoopbackHTTP
import SeatPayments
import SeatSecrets
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

    /// An operator's own checkout (a `checkout` key, or a manager) sells a hold against a payment it took
    /// itself, the seats.io way: for the hold's total, under a reference used once. Nobody else may say
    /// money was taken, and a checkout key can do nothing else.
    @Test(arguments: StoreBackend.available) func aCheckoutKeySellsAgainstItsOwnPayment(backend: StoreBackend) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("operators-\(UUID().uuidString).txt").path
        let (shop, clerk) = ("shop-checkout-key-0123456789", "li-boxoffice-key-4d8e6a0c2f")
        try "shop checkout \(OperatorDirectory.digest(shop))\nli boxoffice \(OperatorDirectory.digest(clerk))\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try TestServer(backend: backend) {
            $0.payments = try! Self.settings(Self.stripe)
            $0.operatorsFile = path
        }
        let c = try server.connection()
        let token = try #require(try hold(c, ["7-1", "7-2"]).string("token"))
        func confirm(_ token: String, _ body: String, key: String?) throws -> HTTPConnection.Response {
            try c.request("POST", "/v1/holds/\(token)/confirm", json: body, headers: key.map { [("X-Admin-Key", $0)] } ?? [])
        }
        let paid = #"{"orderRef":"SHOP-1","payment":{"provider":"external","reference":"wx-4200001","amount":"116.00"}}"#
        #expect(try confirm(token, paid, key: nil).status == 401)
        let clerkTried = try confirm(token, paid, key: clerk)
        #expect(clerkTried.status == 403 && clerkTried.string("detail")?.hasSuffix("checkouts only") == true, "\(clerkTried.text)")
        let short = try confirm(token, paid.replacingOccurrences(of: "116.00", with: "100.00"), key: shop)
        #expect(short.status == 422 && short.string("type") == "/problems/payment-mismatch", "\(short.text)")
        let bad = try confirm(token, #"{"orderRef":"SHOP-1","payment":{"provider":"paypal","reference":"","amount":"x"}}"#, key: shop)
        #expect(bad.status == 422 && bad.text.contains("payment.provider") && bad.text.contains("payment.amount"), "\(bad.text)")
        #expect(try server.availability().counts.sold == 0)

        let sold = try confirm(token, paid, key: shop)
        #expect(sold.status == 200 && sold.string("state") == "confirmed" && sold.string("orderRef") == "SHOP-1", "\(sold.text)")
        let store = try server.openStore()
        let recorded = try #require(try store.payments?.payment(provider: "external", providerID: "wx-4200001"))
        #expect(recorded.state == .succeeded && recorded.amount == 11600 && recorded.outcome == "sold (taken by shop)")
        // One sale a reference; a manager may say it too.
        let other = try #require(try hold(c, ["6-1"]).string("token"))
        let reused = try confirm(other, paid.replacingOccurrences(of: "116.00", with: "58.00"), key: shop)
        #expect(reused.status == 409 && reused.string("type") == "/problems/payment-reference-used", "\(reused.text)")
        let byManager = try confirm(
            other, #"{"orderRef":"SHOP-2","payment":{"provider":"external","reference":"wx-4200002","amount":"58.00"}}"#, key: TestServer.adminKey)
        #expect(byManager.status == 200, "\(byManager.text)")
        // A checkout key sells against payments and does nothing else.
        let report = try c.request("GET", "/v1/shows/show/report", headers: [("X-Admin-Key", shop)])
        #expect(report.status == 403, "\(report.text)")
    }
}
