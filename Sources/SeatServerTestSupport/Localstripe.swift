import Foundation
import LoopbackHTTP
import SeatPayments

#if canImport(Glibc)
import Glibc
#endif

/// localstripe (PyPI, which `make payment-deps` installs): a stateful Stripe-compatible server that keeps
/// PaymentIntents, takes test cards and posts signed webhooks, started on a free port for one test and
/// stopped with it. A test that needs it fails (never skips) when it cannot start.
public final class Localstripe: Sendable {
    public let port: UInt16
    let process: Process

    public init() throws {
        port = try Self.freePort()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // From scratch: without it localstripe loads /tmp/localstripe.pickle, which another instance
        // may be writing at that moment (it then dies at start, as it did once in three full runs).
        p.arguments = ["python3", "-m", "localstripe", "--port", String(port), "--from-scratch"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline {
            if (try? HTTPConnection(port: port).request("GET", "/v1/payment_intents", headers: [Self.key])) != nil { return }
            usleep(100_000)
        }
        kill(p.processIdentifier, SIGKILL)
        throw Unavailable(description: "localstripe did not start on port \(port) (pip install localstripe)")
    }

    deinit {
        // aiohttp's server ignores SIGTERM; SIGKILL is what stops it.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    public struct Unavailable: Error, CustomStringConvertible { public var description: String }

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

    public static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Unavailable(description: "no free port for localstripe") }
        return UInt16(bigEndian: address.sin_port)
    }
}
