import Foundation
import LoopbackHTTP
import SeatPayments

/// localstripe (PyPI, which `make payment-deps` installs): a stateful Stripe-compatible server that keeps
/// PaymentIntents, takes test cards and posts signed webhooks, started on a free port for one test and
/// stopped with it. A test that needs it fails (never skips) when it cannot start.
public final class Localstripe: Sendable {
    let server: LocalPythonServer
    public var port: UInt16 { server.port }

    public init() throws {
        // From scratch: without it localstripe loads /tmp/localstripe.pickle, which another instance
        // may be writing at that moment (it then dies at start, as it did once in three full runs).
        server = try LocalPythonServer(
            ["-m", "localstripe"], extra: ["--from-scratch"], hint: "pip install localstripe",
            ready: { port in (try? HTTPConnection(port: port).request("GET", "/v1/payment_intents", headers: [Localstripe.key])) != nil })
    }

    public typealias Unavailable = LocalPythonServer.Unavailable

    /// The secret key localstripe takes (any).
    public static let secretKey = "sk_test_seatkit"
    static let key = ("Authorization", "Bearer " + secretKey)

    /// A form post to localstripe's API; the answer's JSON.
    @discardableResult
    public func post(_ path: String, _ fields: [(String, String)]) throws -> HTTPConnection.Response {
        try HTTPConnection(port: port).request(
            "POST", path, headers: [Self.key, ("Content-Type", "application/x-www-form-urlencoded")], body: ProviderHTTP.form(fields))
    }

    /// Sends every `events` webhook to `url`, signed with `secret` (Stripe's scheme).
    public func sendWebhooks(to url: String, secret: String, events: [String]) throws {
        try post("/_config/webhooks/seatkit", [("url", url), ("secret", secret)] + events.map { ("events[]", $0) })
    }

    /// Pays PaymentIntent `id` with Stripe's test card 4242 4242 4242 4242, as a buyer's page would:
    /// the card attached, then the intent confirmed. Its new status.
    public func pay(intent id: String, card: String = "4242424242424242") throws -> String? {
        let method = try post(
            "/v1/payment_methods", [("type", "card"), ("card[number]", card), ("card[exp_month]", "12"), ("card[exp_year]", "2034"), ("card[cvc]", "123")])
        guard let pm = method.string("id") else { return nil }
        try post("/v1/payment_intents/\(id)", [("payment_method", pm)])
        return try post("/v1/payment_intents/\(id)/confirm", []).string("status")
    }

    /// The publishable key the buyer's page runs Stripe.js with (localstripe takes any `pk_`).
    public static let publishableKey = "pk_test_seatkit"

    /// What Stripe.js's `confirmCardSetup(clientSecret, {payment_method: {card}})` does at localstripe
    /// (its own copy of Stripe.js posts the same): the card into the SetupIntent, with the publishable
    /// key only. The SetupIntent's id and status (`succeeded`, `requires_action` for a 3-D Secure card),
    /// or the refusal's status (402 for a card declined on attaching).
    public func confirmSetup(clientSecret: String, card: String = "4242424242424242") throws -> (id: String, status: String) {
        let id = String(clientSecret.prefix { $0 != "_" }) + "_" + String(clientSecret.dropFirst(5).prefix { $0 != "_" })
        let body =
            #"{"key":"\#(Self.publishableKey)","use_stripe_sdk":true,"client_secret":"\#(clientSecret)","payment_method_data":{"type":"card","card":{"number":"\#(card)","exp_month":"12","exp_year":"2034","cvc":"123"}}}"#
        var answer = try HTTPConnection(port: port).request(
            "POST", "/v1/setup_intents/\(id)/confirm", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        // A 3-D Secure card: Stripe.js shows the bank's page, and the buyer passes it.
        if answer.string("status") == "requires_action" {
            let again = #"{"key":"\#(Self.publishableKey)","use_stripe_sdk":true,"client_secret":"\#(clientSecret)"}"#
            answer = try HTTPConnection(port: port).request(
                "POST", "/v1/setup_intents/\(id)/confirm", headers: [("Content-Type", "application/json")], body: Array(again.utf8))
        }
        return (id, answer.status == 200 ? answer.string("status") ?? "" : String(answer.status))
    }

    /// What Stripe.js's `confirmCardPayment(clientSecret)` does for an intent that asks for 3-D Secure,
    /// the buyer passing it: the intent's new status.
    public func authenticate(clientSecret: String) throws -> String? {
        let intent = String(clientSecret.prefix { $0 != "_" }) + "_" + String(clientSecret.dropFirst(3).prefix { $0 != "_" })
        let body = #"{"key":"\#(Self.publishableKey)","client_secret":"\#(clientSecret)"}"#
        return try HTTPConnection(port: port).request(
            "POST", "/v1/payment_intents/\(intent)/_authenticate?success=true", headers: [("Content-Type", "application/json")], body: Array(body.utf8)
        ).string("status")
    }

    public static func freePort() throws -> UInt16 { try LocalPythonServer.freePort() }
}
