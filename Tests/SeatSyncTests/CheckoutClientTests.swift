import Foundation
import LoopbackHTTP
import SeatPayments
import SeatServerTestSupport
import SeatSync
import SeatWire
import Testing

/// An app pays through the typed client: `checkout` gives the payment and what Stripe's SDK needs (the
/// client secret), the intent is paid (here at localstripe, as the SDK would), and the hold is then sold:
/// the client reads `hold-confirmed` naming the order.
@Suite(.serialized, .timeLimit(.minutes(1))) struct CheckoutClientTests {
    /// A server taking Stripe payments at a fresh localstripe, whose webhooks reach it.
    func paidServer() throws -> (stripe: Localstripe, server: TestServer) {
        let stripe = try Localstripe()
        let secret = "whsec_client_0123456789"
        let payments = try PaymentSettings(
            file: "stripe secretKey=\(Localstripe.secretKey) webhookSecret=\(secret) api=http://127.0.0.1:\(stripe.port)", path: "payments.txt")
        let server = try TestServer { $0.payments = payments }
        try stripe.sendWebhooks(to: "http://127.0.0.1:\(server.port)/v1/payments/stripe/notify", secret: secret, events: ["payment_intent.succeeded"])
        return (stripe, server)
    }

    @Test func anAppPaysThroughTheTypedClient() async throws {
        let (stripe, server) = try paidServer()
        let api = SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let hold = try await api.createHold(show: "show", HoldRequest(seats: ["7-1", "7-2"]))
        // Confirming by asking is refused: the app must pay.
        do {
            _ = try await api.confirmHold(token: hold.token, orderRef: "APP-1")
            Issue.record("confirmed without paying")
        } catch {
            guard case .problem(let p) = error else { throw error }
            #expect(p.status == 402 && p.type == "/problems/payment-required")
        }
        let checkout = try await api.checkout(token: hold.token, provider: "stripe", orderRef: "APP-1")
        #expect(checkout.payment.state == "pending" && checkout.payment.amount == "116.00" && checkout.payment.orderRef == "APP-1")
        #expect(checkout.hold.token == hold.token && checkout.hold.orderRef == "APP-1")
        let secretText = try #require(checkout.payment.clientSecret)
        let intent = try #require(secretText.range(of: "_secret_").map { String(secretText[..<$0.lowerBound]) })
        #expect(try stripe.pay(intent: intent) == "succeeded")
        let deadline = Date().addingTimeInterval(10)
        var sold: ProblemDocument?
        while sold == nil && Date() < deadline {
            do { _ = try await api.hold(token: hold.token) } catch {
                if case .problem(let p) = error, p.type == "/problems/hold-confirmed" { sold = p }
            }
            if sold == nil { try await Task.sleep(nanoseconds: 50_000_000) }
        }
        #expect(sold?.detail.hasSuffix("order APP-1") == true, "\(String(describing: sold))")
    }

    /// The same through the session an app's map runs on: the hold reads `paying` after the checkout
    /// (and the session keeps it, also across a resume), `paymentResult` says paying, then paid once
    /// the provider's notification sold it, and the session's picture shows the seats sold.
    @Test func aSessionPaysAndLearnsTheResult() async throws {
        let (stripe, server) = try paidServer()
        let session = try await SeatSession(api: SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!), show: "show")
        await session.select("5-1")
        await session.settle()
        let payment = try #require(await session.checkout(provider: "stripe", orderRef: "APP-2"))
        #expect(payment.state == "pending" && payment.amount == "33.30")
        #expect(await session.state.hold?.state == .paying)
        guard case .paying = await session.paymentResult() else { Issue.record("not paying"); return }
        await session.resume()
        await session.settle()
        #expect(await session.state.hold?.state == .paying, "a paying hold is kept across a resume")
        let secretText = try #require(payment.clientSecret)
        let intent = try #require(secretText.range(of: "_secret_").map { String(secretText[..<$0.lowerBound]) })
        #expect(try stripe.pay(intent: intent) == "succeeded")
        // The app slept through the sale: a resume may drop the hold as bought; the result still says so.
        try await Task.sleep(nanoseconds: 300_000_000)
        await session.resume()
        await session.settle()
        let deadline = Date().addingTimeInterval(10)
        var result = await session.paymentResult()
        while case .paying = result, Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
            result = await session.paymentResult()
        }
        #expect(result == .paid(orderRef: "APP-2"), "\(result)")
        #expect(await session.state.hold == nil)
        let seat = try #require(await session.state.layout.index(ofSeatID: "5-1"))
        #expect(await session.state.server[seat] == .sold)
    }
}
