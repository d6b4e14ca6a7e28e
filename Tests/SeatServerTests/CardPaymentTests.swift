import Foundation
import LoopbackHTTP
import SeatDomain
import SeatPayments
import SeatServerTestSupport
import Testing

/// The card form on the buyer's page, against localstripe: the page (here, what its Stripe.js posts)
/// collects the card into a SetupIntent with the publishable key only, the server charges the hold's
/// PaymentIntent with it, and Stripe's signed webhook sells. The server never sees the card; the amount
/// charged is the checkout's, whatever the page does.
@Suite(.serialized) struct CardPaymentTests {
    let flow = PaymentFlowTests()

    func server(_ backend: StoreBackend, _ stripe: Localstripe, publishable: Bool = true) throws -> TestServer {
        let key = publishable ? " publishableKey=\(Localstripe.publishableKey)" : ""
        let payments = try PaymentSettings(
            file: "stripe secretKey=\(Localstripe.secretKey) webhookSecret=\(PaymentFlowTests.webhookSecret)\(key) api=http://127.0.0.1:\(stripe.port)",
            path: "payments.txt")
        let server = try TestServer(backend: backend) { $0.payments = payments }
        try stripe.sendWebhooks(
            to: "http://127.0.0.1:\(server.port)/v1/payments/stripe/notify", secret: PaymentFlowTests.webhookSecret,
            events: ["payment_intent.succeeded", "payment_intent.payment_failed"])
        return server
    }

    /// A hold of `seats` checked out with Stripe: its token and payment id.
    func checkout(_ c: HTTPConnection, _ seats: [String]) throws -> (token: String, payment: String) {
        let token = try #require(try hold(c, seats).string("token"))
        let checkout = try c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"stripe","method":"card"}"#)
        #expect(checkout.status == 201, "\(checkout.text)")
        return (token, try #require(checkout.json?["payment"]?.objectValue?["id"]?.stringValue))
    }

    func setup(_ c: HTTPConnection, _ token: String) throws -> String {
        let setup = try c.request("POST", "/v1/holds/\(token)/card-setup")
        #expect(setup.status == 201, "\(setup.text)")
        return try #require(setup.string("clientSecret"))
    }

    @Test(arguments: StoreBackend.available) func aBuyerPaysByCardOnThePageThenOwnsTheSeats(backend: StoreBackend) throws {
        let stripe = try Localstripe()
        let server = try server(backend, stripe)
        let c = try server.connection()
        // The page learns the key and where Stripe.js is; the page's policy lets it in.
        let options = try c.request("GET", "/v1/payments")
        let option = try #require(options.json?["providers"]?.arrayValue?.first?.objectValue)
        #expect(option["publishableKey"]?.stringValue == Localstripe.publishableKey, "\(options.text)")
        #expect(option["script"]?.stringValue == "http://127.0.0.1:\(stripe.port)/js.stripe.com/v3/", "\(options.text)")
        let policy = try c.request("GET", "/").headers["content-security-policy"] ?? ""
        #expect(
            policy.contains("script-src 'self' http://127.0.0.1:\(stripe.port)") && policy.contains("connect-src 'self' http://127.0.0.1:\(stripe.port)"),
            "\(policy)")

        let (token, paymentID) = try checkout(c, ["7-1", "7-2"])
        let secret = try setup(c, token)
        let card = try stripe.confirmSetup(clientSecret: secret)
        #expect(card.status == "succeeded")
        let paid = try c.request("POST", "/v1/holds/\(token)/card-payment", json: #"{"setupIntent":"\#(card.id)"}"#)
        #expect(paid.status == 200 && paid.string("state") == "succeeded", "\(paid.text)")
        // Stripe's webhook sells; the receipt follows the server, not the page.
        let sold = try flow.hold(c, token) { $0.status == 409 }
        #expect(sold.string("type") == "/problems/hold-confirmed", "\(sold.text)")
        #expect(try server.availability().counts.sold == 2)
        let store = try server.openStore()
        let recorded = try #require(try store.payments?.payment(id: paymentID))
        #expect(recorded.state == .succeeded && recorded.amount == 11600, "\(recorded)")
        // Charging again (a second click) changes nothing.
        let again = try c.request("POST", "/v1/holds/\(token)/card-payment", json: #"{"setupIntent":"\#(card.id)"}"#)
        #expect(again.status == 409 && again.string("type") == "/problems/hold-confirmed", "\(again.text)")
        let report = try flow.reconciliation(c)
        #expect(report.payments.count == 1 && report.mismatches.isEmpty, "\(report)")
    }

    @Test(arguments: StoreBackend.available) func aDeclinedCardIsRefusedAndSellsNothing(backend: StoreBackend) throws {
        let stripe = try Localstripe()
        let server = try server(backend, stripe)
        let c = try server.connection()
        let (token, paymentID) = try checkout(c, ["7-1"])
        // Declined when charged (Stripe's 4000 0000 0000 0341): a 402 with the bank's words, nothing sold.
        let first = try stripe.confirmSetup(clientSecret: try setup(c, token), card: "4000000000000341")
        #expect(first.status == "succeeded")
        let declined = try c.request("POST", "/v1/holds/\(token)/card-payment", json: #"{"setupIntent":"\#(first.id)"}"#)
        #expect(declined.status == 402 && declined.string("type") == "/problems/card-declined", "\(declined.text)")
        #expect(declined.string("detail")?.isEmpty == false, "\(declined.text)")
        #expect(try c.request("GET", "/v1/holds/\(token)").string("state") == "paying")
        #expect(try server.availability().counts.sold == 0)
        // (Stripe takes another card for the same intent after a decline; localstripe keeps the failed
        // charge as the intent's last word, so the retry is not driven here.)
        let report = try flow.reconciliation(c)
        #expect(report.mismatches.isEmpty, "\(report)")
        #expect(try server.openStore().payments?.payment(id: paymentID)?.state == .pending)
    }

    @Test(arguments: StoreBackend.available) func aThreeDSecureCardIsFinishedOnThePage(backend: StoreBackend) throws {
        let stripe = try Localstripe()
        let server = try server(backend, stripe)
        let c = try server.connection()
        let (token, paymentID) = try checkout(c, ["7-1"])
        // Stripe's 4000 0025 0000 3155: set up through the bank's page, then the charge asks for it again.
        let card = try stripe.confirmSetup(clientSecret: try setup(c, token), card: "4000002500003155")
        #expect(card.status == "succeeded")
        let action = try c.request("POST", "/v1/holds/\(token)/card-payment", json: #"{"setupIntent":"\#(card.id)"}"#)
        #expect(action.status == 200 && action.string("state") == "requires_action", "\(action.text)")
        #expect(try server.availability().counts.sold == 0)
        let intentSecret = try #require(action.string("clientSecret"))
        #expect(try stripe.authenticate(clientSecret: intentSecret) == "succeeded")
        let sold = try flow.hold(c, token) { $0.status == 409 }
        #expect(sold.string("type") == "/problems/hold-confirmed", "\(sold.text)")
        #expect(try server.availability().counts.sold == 1)
        let recorded = try #require(try server.openStore().payments?.payment(id: paymentID))
        #expect(recorded.state == .succeeded && recorded.amount == 5800, "\(recorded)")
        #expect(try flow.reconciliation(c).mismatches.isEmpty)
    }

    @Test(arguments: StoreBackend.available) func aCardForAnotherPaymentOrNoneIsRefused(backend: StoreBackend) throws {
        let stripe = try Localstripe()
        let server = try server(backend, stripe)
        let c = try server.connection()
        // No checkout yet: nothing to pay by card.
        let bare = try #require(try hold(c, ["7-3"]).string("token"))
        let none = try c.request("POST", "/v1/holds/\(bare)/card-setup")
        #expect(none.status == 409 && none.string("type") == "/problems/no-card-payment", "\(none.text)")
        let a = try checkout(c, ["7-1"]), b = try checkout(c, ["7-2"])
        // B's card cannot pay A's payment (nor the other way round): refused before Stripe is asked to charge.
        let bCard = try stripe.confirmSetup(clientSecret: try setup(c, b.token))
        let foreign = try c.request("POST", "/v1/holds/\(a.token)/card-payment", json: #"{"setupIntent":"\#(bCard.id)"}"#)
        #expect(foreign.status == 422 && foreign.string("detail")?.hasPrefix("setupIntent:") == true, "\(foreign.text)")
        // A SetupIntent the page has not confirmed yet.
        let unconfirmed = try setup(c, a.token)
        let unconfirmedID = "seti_" + String(unconfirmed.dropFirst(5).prefix { $0 != "_" })
        let early = try c.request("POST", "/v1/holds/\(a.token)/card-payment", json: #"{"setupIntent":"\#(unconfirmedID)"}"#)
        #expect(early.status == 409 && early.string("type") == "/problems/card-not-set-up", "\(early.text)")
        // Bodies that are not a SetupIntent: the field named.
        for body in [#"{}"#, #"{"setupIntent":"pm_123"}"#, #"{"setupIntent":"seti_1","amount":"0.01"}"#] {
            let bad = try c.request("POST", "/v1/holds/\(a.token)/card-payment", json: body)
            #expect(bad.status == 422 && bad.text.contains("setupIntent") || bad.text.contains("amount"), "\(body): \(bad.text)")
        }
        #expect(try server.availability().counts.sold == 0)
        // An unknown token is a wrong guess, as on every capability route.
        #expect(try c.request("POST", "/v1/holds/hld_nope/card-setup").status == 404)
    }

    @Test func withoutAPublishableKeyThePageTakesNoCard() throws {
        let stripe = try Localstripe()
        let server = try server(.sqlite, stripe, publishable: false)
        let c = try server.connection()
        let option = try #require(try c.request("GET", "/v1/payments").json?["providers"]?.arrayValue?.first?.objectValue)
        #expect(option["publishableKey"] == nil && option["script"] == nil)
        let policy = try c.request("GET", "/").headers["content-security-policy"] ?? ""
        #expect(policy.contains("script-src 'self';") && !policy.contains("127.0.0.1"), "\(policy)")
        let (token, _) = try checkout(c, ["7-1"])
        let setup = try c.request("POST", "/v1/holds/\(token)/card-setup")
        #expect(setup.status == 422 && setup.string("type") == "/problems/provider-not-configured", "\(setup.text)")
    }
}
