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

    public static func freePort() throws -> UInt16 { try LocalPythonServer.freePort() }
}
