import Foundation
import SeatDomain
import LoopbackHTTP
import SeatPayments
import SeatServerTestSupport
import Testing

/// A buyer pays with Stripe and only then owns the seats, against localstripe (a Stripe-compatible server
/// that signs its webhooks the way Stripe does): hold → checkout → the PaymentIntent paid with a test card
/// → localstripe's signed webhook sells the seats. Meanwhile nobody can change the hold; a forged, stale,
/// unknown or mismatched notification changes nothing and is counted; a repeated one is one.
@Suite(.serialized) struct PaymentFlowTests {
    static let webhookSecret = "whsec_seatkit_flow_0123456789"

    func server(_ backend: StoreBackend, _ stripe: Localstripe) throws -> TestServer {
        let payments = try PaymentSettings(
            file: "stripe secretKey=\(Localstripe.secretKey) webhookSecret=\(Self.webhookSecret) api=http://127.0.0.1:\(stripe.port)", path: "payments.txt")
        let server = try TestServer(backend: backend) { $0.payments = payments }
        try stripe.sendWebhooks(
            to: "http://127.0.0.1:\(server.port)/v1/payments/stripe/notify", secret: Self.webhookSecret,
            events: ["payment_intent.succeeded", "payment_intent.payment_failed"])
        return server
    }

    /// The hold as the API says, polled until `done` or 10 s.
    func hold(_ c: HTTPConnection, _ token: String, until done: (HTTPConnection.Response) -> Bool) throws -> HTTPConnection.Response {
        let deadline = Date().addingTimeInterval(10)
        var last = try c.request("GET", "/v1/holds/\(token)")
        while !done(last) && Date() < deadline {
            usleep(50_000)
            last = try c.request("GET", "/v1/holds/\(token)")
        }
        return last
    }

    /// The refused notifications by reason, as /metrics says.
    func refused(_ c: HTTPConnection) throws -> [String: Int] {
        let text = try c.request("GET", "/metrics", headers: [("X-Admin-Key", TestServer.adminKey)]).text
        var out: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("seatkit_payment_notifications_refused_total{reason=\"") {
            let reason = line.dropFirst("seatkit_payment_notifications_refused_total{reason=\"".count).prefix { $0 != "\"" }
            out[String(reason)] = Int(line.split(separator: " ").last ?? "")
        }
        return out
    }

    @Test(arguments: StoreBackend.available) func aBuyerPaysWithStripeThenOwnsTheSeats(backend: StoreBackend) throws {
        let stripe = try Localstripe()
        let server = try server(backend, stripe)
        let c = try server.connection()
        let token = try #require(try SeatServerTestSupport.hold(c, ["7-1", "7-2"]).string("token"))

        let checkout = try c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"stripe","orderRef":"WEB-PAID-1"}"#)
        #expect(checkout.status == 201, "\(checkout.text)")
        let payment = try #require(checkout.json?["payment"]?.objectValue)
        #expect(payment["state"]?.stringValue == "pending" && payment["amount"]?.stringValue == "116.00" && payment["currency"]?.stringValue == "CNY")
        let secret = try #require(payment["clientSecret"]?.stringValue)
        let intent = String(secret.prefix { $0 != "_" }) + "_" + String(secret.dropFirst(3).prefix { $0 != "_" })
        #expect(intent.hasPrefix("pi_"), "\(secret)")
        // A retried checkout is the same payment.
        let again = try c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"stripe"}"#)
        #expect(again.status == 200 && again.json?["payment"]?.objectValue?["id"] == payment["id"], "\(again.text)")

        // Paying: nobody changes the hold, nobody confirms it by asking.
        let modify = try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"add":["7-3"]}"#)
        #expect(modify.status == 409 && modify.string("type") == "/problems/hold-paying", "\(modify.text)")
        #expect(try c.request("DELETE", "/v1/holds/\(token)").status == 409)
        let confirm = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"FREE"}"#)
        #expect(confirm.status == 409 && confirm.string("type") == "/problems/hold-paying", "\(confirm.text)")
        // It reads `paying`, kept until the payment's window ends.
        let paying = try c.request("GET", "/v1/holds/\(token)")
        #expect(paying.string("state") == "paying" && paying.string("expiresAt") == payment["expiresAt"]?.stringValue, "\(paying.text)")
        #expect(try server.availability().counts.sold == 0)

        // The buyer pays at "Stripe"; its signed webhook sells the seats.
        #expect(try stripe.pay(intent: intent) == "succeeded")
        // A sold hold's token answers 409 hold-confirmed, naming its order.
        let sold = try hold(c, token) { $0.status == 409 }
        #expect(sold.string("type") == "/problems/hold-confirmed" && sold.string("detail")?.hasSuffix("order WEB-PAID-1") == true, "\(sold.text)")
        #expect(try server.availability().counts.sold == 2)
        let store = try server.openStore()
        let recorded = try #require(try store.payments?.payment(provider: "stripe", providerID: intent))
        #expect(recorded.state == .succeeded && recorded.outcome == "sold" && recorded.amount == 11600)

        // The same notification again (as Stripe retries): received, nothing more sold or recorded.
        let event = Self.event(intent: intent, payment: recorded.id, amount: 11600, currency: "cny")
        let repeated = try notify(c, event, secret: Self.webhookSecret)
        #expect(repeated.status == 200 && repeated.string("outcome") == "recorded before", "\(repeated.text)")
        #expect(try server.availability().counts.sold == 2)
        // The day's payments: this one, sold as its order, and no mismatch.
        let report = try reconciliation(c)
        #expect(report.payments == ["\(recorded.id) stripe succeeded 116.00 WEB-PAID-1"] && report.mismatches.isEmpty, "\(report)")
    }

    static func event(intent: String, payment: String, amount: Int, currency: String, type: String = "payment_intent.succeeded") -> [UInt8] {
        Array(
            #"{"id":"evt_test_\#(intent)","object":"event","type":"\#(type)","data":{"object":{"id":"\#(intent)","object":"payment_intent","amount":\#(amount),"currency":"\#(currency)","status":"succeeded","metadata":{"payment":"\#(payment)"}}}}"#
                .utf8)
    }

    func notify(_ c: HTTPConnection, _ body: [UInt8], secret: String, at time: Int = Int(Date().timeIntervalSince1970)) throws -> HTTPConnection.Response {
        let header = StripeSignature.header(body: body, secret: ProviderSecret(secret), timestamp: time)
        return try c.request("POST", "/v1/payments/stripe/notify", headers: [("Content-Type", "application/json"), ("Stripe-Signature", header)], body: body)
    }

    @Test(arguments: StoreBackend.available) func aNotificationThatIsNotStripesChangesNothing(backend: StoreBackend) throws {
        let stripe = try Localstripe()
        let server = try server(backend, stripe)
        let c = try server.connection()
        let token = try #require(try SeatServerTestSupport.hold(c, ["5-1"]).string("token"))
        let checkout = try c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"stripe"}"#)
        let payment = try #require(checkout.json?["payment"]?.objectValue?["id"]?.stringValue)
        let store = try server.openStore()
        let stored = try #require(try store.payments?.payment(id: payment))
        let (intent, amount) = (try #require(stored.providerID), Int(stored.amount))
        let good = Self.event(intent: intent, payment: payment, amount: amount, currency: "cny")
        #expect(try refused(c).values.allSatisfy { $0 == 0 })
        let cases: [(String, HTTPConnection.Response)] = [
            ("forged", try notify(c, good, secret: "whsec_someone_else")),
            ("stale", try notify(c, good, secret: Self.webhookSecret, at: Int(Date().timeIntervalSince1970) - 600)),
            ("unknown", try notify(c, Self.event(intent: "pi_nobody", payment: payment, amount: amount, currency: "cny"), secret: Self.webhookSecret)),
            ("another amount", try notify(c, Self.event(intent: intent, payment: payment, amount: 1, currency: "cny"), secret: Self.webhookSecret)),
            ("another currency", try notify(c, Self.event(intent: intent, payment: payment, amount: amount, currency: "usd"), secret: Self.webhookSecret)),
            ("another payment", try notify(c, Self.event(intent: intent, payment: "pay_other", amount: amount, currency: "cny"), secret: Self.webhookSecret)),
            (
                "unsigned",
                try c.request("POST", "/v1/payments/stripe/notify", headers: [("Content-Type", "application/json")], body: good)
            ),
        ]
        for (what, answer) in cases {
            #expect(answer.status == 400 && answer.headers["content-type"] == "application/problem+json", "\(what): \(answer.status) \(answer.text)")
        }
        #expect(try refused(c) == ["forged": 1, "stale": 1, "unknown": 1, "mismatch": 3, "unsigned": 1, "unreadable": 0, "merchant": 0])
        // Nothing sold, the payment still pending, the hold still the buyer's and paying.
        #expect(try server.availability().counts.sold == 0 && server.availability().counts.held == 1)
        #expect(try store.payments?.payment(id: payment)?.state == .pending)
        // The genuine one still sells.
        let genuine = try notify(c, good, secret: Self.webhookSecret)
        #expect(genuine.status == 200 && genuine.string("outcome")?.hasPrefix("sold") == true, "\(genuine.text)")
        #expect(try server.availability().counts.sold == 1)
    }

    /// Paid after its hold ended (here the show was cancelled meanwhile, which ends every hold): nothing
    /// is sold for it, and its money goes back through Stripe at once; the payment is recorded as
    /// refunded. Never a payment without a sale or a refund.
    @Test(arguments: StoreBackend.available) func aPaymentAfterItsHoldEndedIsRefunded(backend: StoreBackend) throws {
        let stripe = try Localstripe()
        let server = try server(backend, stripe)
        let c = try server.connection()
        let token = try #require(try SeatServerTestSupport.hold(c, ["6-1"]).string("token"))
        let checkout = try c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"stripe"}"#)
        let paymentID = try #require(checkout.json?["payment"]?.objectValue?["id"]?.stringValue)
        let store = try server.openStore()
        let intent = try #require(try store.payments?.payment(id: paymentID)?.providerID)
        let cancelled = try c.request(
            "POST", "/v1/shows/show/cancel", json: #"{"reason":"the projector broke"}"#, headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(cancelled.status == 200, "\(cancelled.text)")
        #expect(try c.request("GET", "/v1/holds/\(token)").status == 410)

        #expect(try stripe.pay(intent: intent) == "succeeded")
        let recorded = try eventually(store, paymentID) { $0.state == .refunded }
        #expect(recorded.state == .refunded && recorded.outcome?.contains("late: the hold ended") == true, "\(recorded)")
        #expect(try refunds(stripe, intent) == [Int(recorded.amount)])
        #expect(try server.availability().counts.sold == 0)
        #expect(try reconciliation(c).mismatches.isEmpty)
    }

    /// The provider could not say for the whole grace (here: asking answers nothing), so the paying holds
    /// expired; then the payments succeed. The one whose seats are still free sells them, under its order
    /// and in the same change that records it; the one whose seat another buyer took meanwhile is
    /// refunded through Stripe. Never a payment without a sale or a refund, and the report is empty.
    @Test(arguments: StoreBackend.available) func aLatePaymentSellsItsSeatsWhenTheyAreStillFree(backend: StoreBackend) throws {
        let stripe = try Localstripe()
        let server = try server(backend, stripe)
        server.app.inventory.askPayments { _ in nil }
        let c = try server.connection()
        let store = try server.openStore()
        func checkout(_ seats: [String], _ orderRef: String) throws -> (token: String, payment: String, intent: String) {
            let token = try #require(try SeatServerTestSupport.hold(c, seats).string("token"))
            let answer = try c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"stripe","orderRef":"\#(orderRef)"}"#)
            let payment = try #require(answer.json?["payment"]?.objectValue?["id"]?.stringValue)
            return (token, payment, try #require(try store.payments?.payment(id: payment)?.providerID))
        }
        let free = try checkout(["9-1", "9-2"], "WEB-LATE-FREE"), taken = try checkout(["10-1"], "WEB-LATE-TAKEN")
        // Past the window and the grace, nobody having said: both holds end, their payments pending.
        server.app.inventory.clockOffset.advance(by: 26 * 60_000)
        #expect(server.app.inventory.expireDue() == 2)
        #expect(try c.request("GET", "/v1/holds/\(free.token)").status == 410)
        let other = try SeatServerTestSupport.hold(c, ["10-1"])
        #expect(other.status == 201, "\(other.text)")

        #expect(try stripe.pay(intent: free.intent) == "succeeded")
        let sold = try eventually(store, free.payment) { $0.state != .pending }
        #expect(sold.state == .succeeded && sold.outcome?.hasPrefix("sold late") == true, "\(sold)")
        let order = try c.request("GET", "/v1/orders/WEB-LATE-FREE", headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(order.status == 200 && order.text.contains("9-1") && order.text.contains("9-2"), "\(order.status) \(order.text)")

        #expect(try stripe.pay(intent: taken.intent) == "succeeded")
        let refunded = try eventually(store, taken.payment) { $0.state == .refunded }
        let why = try refused(c)
        #expect(refunded.outcome?.contains("taken meanwhile (10-1)") == true, "\(refunded) \(why)")
        #expect(try refunds(stripe, taken.intent) == [Int(refunded.amount)])
        let counts = try server.availability().counts
        #expect(counts.sold == 2 && counts.held == 1)
        let report = try reconciliation(c)
        #expect(report.payments.count == 2 && report.mismatches.isEmpty, "\(report)")
    }

    /// No notification came (here: none is sent): before a paying hold may expire its provider is asked.
    /// Unpaid, the intent is cancelled there (the buyer can no longer pay it) and the hold expires with
    /// its payment recorded as canceled; paid, the seats are sold.
    @Test(arguments: StoreBackend.available) func aPayingHoldAsksItsProviderBeforeItExpires(backend: StoreBackend) throws {
        let stripe = try Localstripe()
        let server = try server(backend, stripe)
        try stripe.sendWebhooks(to: "http://127.0.0.1:9/nowhere", secret: Self.webhookSecret, events: ["payment_intent.succeeded"])
        let c = try server.connection()
        let store = try server.openStore()
        func checkout(_ seat: String) throws -> (token: String, payment: String, intent: String) {
            let token = try #require(try SeatServerTestSupport.hold(c, [seat]).string("token"))
            let answer = try c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"stripe"}"#)
            let payment = try #require(answer.json?["payment"]?.objectValue?["id"]?.stringValue)
            return (token, payment, try #require(try store.payments?.payment(id: payment)?.providerID))
        }
        let unpaid = try checkout("8-1"), paid = try checkout("8-2")
        #expect(try stripe.pay(intent: paid.intent) == "succeeded")
        // Within the window nothing is asked, nothing ends.
        #expect(server.app.inventory.expireDue() == 0)
        server.app.inventory.clockOffset.advance(by: 16 * 60_000)
        #expect(server.app.inventory.expireDue() == 2)
        // Unpaid: cancelled at Stripe, the hold expired, the payment canceled.
        let intent = try HTTPConnection(port: stripe.port).request(
            "GET", "/v1/payment_intents/\(unpaid.intent)", headers: [("Authorization", "Bearer " + Localstripe.secretKey)])
        #expect(intent.string("status") == "canceled", "\(intent.text)")
        #expect(try c.request("GET", "/v1/holds/\(unpaid.token)").status == 410)
        #expect(try store.payments?.payment(id: unpaid.payment)?.state == .canceled)
        // Paid: sold under its order, the payment succeeded.
        let sold = try c.request("GET", "/v1/holds/\(paid.token)")
        #expect(sold.status == 409 && sold.string("type") == "/problems/hold-confirmed", "\(sold.text)")
        #expect(try store.payments?.payment(id: paid.payment)?.state == .succeeded)
        #expect(try server.availability().counts.sold == 1 && server.availability().counts.held == 0)
        let report = try reconciliation(c)
        #expect(report.payments.count == 2 && report.mismatches.isEmpty, "\(report)")
    }

    /// `GET /v1/reports/payments` for today and tomorrow (the tests move the clock up to 16 minutes).
    func reconciliation(_ c: HTTPConnection) throws -> (payments: [String], mismatches: [String]) {
        let day = 86_400.0, start = (Date().timeIntervalSince1970 / day).rounded(.down) * day
        let f = ISO8601DateFormatter()
        let from = f.string(from: Date(timeIntervalSince1970: start)), to = f.string(from: Date(timeIntervalSince1970: start + 2 * day))
        let answer = try c.request("GET", "/v1/reports/payments?from=\(from)&to=\(to)", headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(answer.status == 200, "\(answer.text)")
        let payments = answer.json?["payments"]?.arrayValue?.compactMap(\.objectValue).map { p in
            ["id", "provider", "state", "amount", "orderRef"].compactMap { p[$0]?.stringValue }.joined(separator: " ")
        }
        let mismatches = answer.json?["mismatches"]?.arrayValue?.compactMap { $0.objectValue?["kind"]?.stringValue }
        return (payments ?? [], mismatches ?? ["unreadable"])
    }

    func eventually(_ store: SeatStore, _ id: String, _ done: (PaymentRecord) -> Bool) throws -> PaymentRecord {
        let deadline = Date().addingTimeInterval(10)
        var last = try #require(try store.payments?.payment(id: id))
        while !done(last) && Date() < deadline {
            usleep(50_000)
            last = try #require(try store.payments?.payment(id: id))
        }
        return last
    }

    /// The amounts Stripe (localstripe) refunded of an intent.
    func refunds(_ stripe: Localstripe, _ intent: String) throws -> [Int] {
        let answer = try HTTPConnection(port: stripe.port).request(
            "GET", "/v1/refunds?payment_intent=\(intent)", headers: [("Authorization", "Bearer " + Localstripe.secretKey)])
        return answer.json?["data"]?.arrayValue?.compactMap { $0.objectValue?["amount"]?.intValue } ?? []
    }
}
