import Foundation
import SeatSecrets

/// The payment providers a deployment takes money with (`seatkit serve --payments FILE`), one a line:
///
///     stripe secretKey=sk_… webhookSecret=whsec_… [publishableKey=pk_…] [api=URL]
///     wechatpay mchid=… appid=… serial=… privateKey=PATH apiV3Key=… platformCert=PATH notifyUrl=URL [api=URL]
///     alipay appId=… privateKey=PATH alipayPublicKey=PATH notifyUrl=URL [gateway=URL]
///     cash
///
/// Blank lines and `#` comments are skipped. Checked whole before the server starts: a mistake is a line
/// and a reason, the file's keys (PEM files read here) are kept only in memory, and `description` never
/// shows a secret. `notifyUrl=` is where WeChat Pay and Alipay post their notifications (this server's
/// `/v1/payments/{provider}/notify`, as the public reaches it). `api=`/`gateway=` default to the providers' real endpoints; tests point them at a
/// local server. Stripe's `publishableKey=` (public, unlike the rest) puts the card form on the buyer's page;
/// without it a card is paid only where the operator's own page takes it (the PaymentIntent's client secret).
public struct PaymentSettings: Sendable, CustomStringConvertible {
    public var stripe: StripeSettings?
    public var wechatpay: WeChatPaySettings?
    public var alipay: AlipaySettings?
    /// Whether the counter takes cash (the only provider that never takes money online).
    public var cash = false

    /// Whether a buyer must pay online before seats are sold: any provider but cash configured.
    public var takesMoneyOnline: Bool { stripe != nil || wechatpay != nil || alipay != nil }

    /// The online providers' names, as a checkout asks for them (`stripe`, `wechatpay`, `alipay`).
    public var onlineProviders: [String] {
        (stripe == nil ? [] : ["stripe"]) + (wechatpay == nil ? [] : ["wechatpay"]) + (alipay == nil ? [] : ["alipay"])
    }

    /// Whether `provider` takes test money, as its buyer's page must say: Stripe's test keys
    /// (`sk_test_`), or WeChat Pay and Alipay pointed anywhere but their real endpoints (Alipay's own
    /// sandbox, SeatKit's Tests/Payments/sandbox.py).
    public func takesTestMoney(_ provider: String) -> Bool {
        switch provider {
        case "stripe": stripe.map { $0.secretKey.text.hasPrefix("sk_test_") || $0.api.host != "api.stripe.com" } ?? false
        case "wechatpay": wechatpay.map { $0.api.host != "api.mch.weixin.qq.com" } ?? false
        case "alipay": alipay.map { $0.gateway.host != "openapi.alipay.com" } ?? false
        default: false
        }
    }

    /// The test cashier of a provider served from this machine (SeatKit's sandbox on a loopback
    /// address, as `make demo` starts it): `{api}/_sandbox/cashier`, where a buyer without a real
    /// WeChat or Alipay pays with test money. Nil for every real or remote provider.
    public func localCashier(_ provider: String) -> String? {
        let base: URL? =
            switch provider {
            case "wechatpay": wechatpay?.api
            case "alipay": alipay.flatMap { URL(string: "/", relativeTo: $0.gateway)?.absoluteURL }
            default: nil
            }
        guard let base, let host = base.host, ["127.0.0.1", "localhost", "::1"].contains(host), let port = base.port else { return nil }
        return "http://\(host):\(port)/_sandbox/cashier"
    }

    public var description: String {
        let names = onlineProviders + (cash ? ["cash"] : [])
        return names.isEmpty ? "no payment providers" : "payments: " + names.joined(separator: ", ")
    }

    public init() {}

    /// Why a payments file is refused: where (`FILE:LINE`), and what is wrong.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var place: String
        public var message: String
        public var description: String { "\(place): \(message)" }
    }

    /// The settings in `text` (a payments file named `path` in messages); `read` reads a key or
    /// certificate file a line names (relative paths are the payments file's folder's).
    public init(file text: String, path: String, read: (String) -> [UInt8]? = { FileManager.default.contents(atPath: $0).map { Array($0) } }) throws {
        let folder = (path as NSString).deletingLastPathComponent
        for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let provider = words.first else { continue }
            let place = "\(path):\(k + 1)"
            func fail(_ message: String) -> Problem { Problem(place: place, message: message) }
            var fields = try Fields(words.dropFirst(), place: place)
            /// A key or certificate file: PEM, or the bare base64 Alipay's key tool writes; read and
            /// checked here, so a wrong file is this line's error and not a failed payment later.
            func file(_ key: String, _ kind: KeyFile) throws -> [UInt8] {
                let name = try fields.take(key)
                let full = name.hasPrefix("/") || folder.isEmpty ? name : folder + "/" + name
                guard let bytes = read(full), !bytes.isEmpty else { throw fail("\(key)=\(name): cannot read that file") }
                let text = String(decoding: bytes, as: UTF8.self)
                switch kind {
                case .privateKey, .publicKey:
                    do { _ = try RSASHA256.keyBits(text, privateKey: kind == .privateKey) } catch {
                        throw fail("\(key)=\(name): \(error)")
                    }
                case .certificate:
                    guard RSASHA256.certificateSerial(text) != nil, (try? RSASHA256.keyBits(text, privateKey: false)) != nil else {
                        throw fail("\(key)=\(name): not a PEM certificate with an RSA key")
                    }
                }
                return bytes
            }
            switch provider {
            case "stripe":
                guard stripe == nil else { throw fail("stripe is configured twice") }
                let secretKey = try fields.take("secretKey"), webhookSecret = try fields.take("webhookSecret")
                guard secretKey.hasPrefix("sk_") || secretKey.hasPrefix("rk_") else { throw fail("secretKey= is a Stripe secret key (sk_… or rk_…)") }
                guard webhookSecret.hasPrefix("whsec_") else { throw fail("webhookSecret= is the endpoint's signing secret (whsec_…)") }
                let publishable = fields.values.removeValue(forKey: "publishableKey")
                if let publishable, !publishable.hasPrefix("pk_") { throw fail("publishableKey= is a Stripe publishable key (pk_…)") }
                if let publishable, publishable.hasPrefix("pk_test_") != secretKey.hasPrefix("sk_test_"), !secretKey.hasPrefix("rk_") {
                    throw fail("publishableKey= and secretKey= are one test and one live key: both pk_test_/sk_test_ or both live")
                }
                stripe = StripeSettings(
                    secretKey: ProviderSecret(secretKey), webhookSecret: ProviderSecret(webhookSecret), publishableKey: publishable,
                    api: try fields.url("api", default: "https://api.stripe.com"))
            case "wechatpay":
                guard wechatpay == nil else { throw fail("wechatpay is configured twice") }
                let mchid = try fields.take("mchid"), appid = try fields.take("appid"), serial = try fields.take("serial")
                guard mchid.allSatisfy(\.isNumber) else { throw fail("mchid= is the merchant's number (digits only), got \"\(mchid)\"") }
                let key = try fields.take("apiV3Key")
                guard key.utf8.count == 32 else { throw fail("apiV3Key= is the 32-character API v3 key (got \(key.utf8.count) characters)") }
                let certificate = try file("platformCert", .certificate)
                wechatpay = WeChatPaySettings(
                    mchid: mchid, appid: appid, serial: serial, privateKey: ProviderSecret(bytes: try file("privateKey", .privateKey)),
                    apiV3Key: ProviderSecret(key), platformCertificate: certificate,
                    platformSerial: RSASHA256.certificateSerial(String(decoding: certificate, as: UTF8.self)) ?? "",
                    notifyURL: try fields.url("notifyUrl", default: nil), api: try fields.url("api", default: "https://api.mch.weixin.qq.com"))
            case "alipay":
                guard alipay == nil else { throw fail("alipay is configured twice") }
                alipay = AlipaySettings(
                    appID: try fields.take("appId"), privateKey: ProviderSecret(bytes: try file("privateKey", .privateKey)),
                    alipayPublicKey: try file("alipayPublicKey", .publicKey), notifyURL: try fields.url("notifyUrl", default: nil),
                    gateway: try fields.url("gateway", default: "https://openapi.alipay.com/gateway.do"))
            case "cash":
                guard !cash else { throw fail("cash is configured twice") }
                cash = true
            default:
                throw fail("unknown provider \"\(provider)\" (stripe, wechatpay, alipay or cash)")
            }
            if let extra = fields.left.first { throw fail("\(provider) takes no \(extra)=") }
        }
    }

    enum KeyFile { case privateKey, publicKey, certificate }

    /// A line's `key=value` words.
    struct Fields {
        var values: [String: String] = [:]
        let place: String
        var left: [String] { values.keys.sorted() }

        init(_ words: ArraySlice<String>, place: String) throws {
            self.place = place
            for word in words {
                guard let eq = word.firstIndex(of: "="), eq != word.startIndex else {
                    throw Problem(place: place, message: "expected key=value, got \"\(word.prefix(40))\"")
                }
                let key = String(word[..<eq])
                guard values[key] == nil else { throw Problem(place: place, message: "\(key)= is given twice") }
                values[key] = String(word[word.index(after: eq)...])
            }
        }

        mutating func take(_ key: String) throws -> String {
            guard let value = values.removeValue(forKey: key), !value.isEmpty else { throw Problem(place: place, message: "\(key)= is missing") }
            return value
        }

        /// An endpoint: http or https, a host, no query; required when there is no default.
        mutating func url(_ key: String, default fallback: String?) throws -> URL {
            guard let text = values.removeValue(forKey: key) ?? fallback else { throw Problem(place: place, message: "\(key)= is missing") }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil, url.query == nil else {
                throw Problem(place: place, message: "\(key)= is an http(s) URL without a query, got \"\(text)\"")
            }
            return url
        }
    }
}

public struct StripeSettings: Sendable {
    public var secretKey: ProviderSecret
    public var webhookSecret: ProviderSecret
    /// The key Stripe.js runs with on the buyer's page (public by design); nil: no card form there.
    public var publishableKey: String? = nil
    public var api: URL

    /// Whether `api` is Stripe's own (else a local stand-in such as localstripe).
    public var isStripe: Bool { api.host == "api.stripe.com" }

    /// Where the buyer's page loads Stripe.js: Stripe's own, or the stand-in's copy beside its API
    /// (localstripe serves one at `/js.stripe.com/v3/` that talks to it).
    public var script: URL {
        isStripe ? URL(string: "https://js.stripe.com/v3/")! : URL(string: "/js.stripe.com/v3/", relativeTo: api)!.absoluteURL
    }

    /// The origins the buyer's page must be let reach for the card form (its Content-Security-Policy):
    /// scripts, frames (Stripe's card fields are frames) and API calls.
    public var pageOrigins: (script: [String], frame: [String], connect: [String]) {
        if isStripe { return (["https://js.stripe.com"], ["https://js.stripe.com", "https://hooks.stripe.com"], ["https://api.stripe.com"]) }
        let origin = URL(string: "/", relativeTo: api)!.absoluteURL.absoluteString.dropLast()
        return ([String(origin)], [], [String(origin)])
    }
}

public struct WeChatPaySettings: Sendable {
    public var mchid: String
    public var appid: String
    /// The merchant certificate's serial number (sent with every signed request).
    public var serial: String
    public var privateKey: ProviderSecret
    public var apiV3Key: ProviderSecret
    /// WeChat Pay's platform certificate (PEM): what its notifications and answers are verified with.
    public var platformCertificate: [UInt8]
    /// Its serial number (upper-case hex): what `Wechatpay-Serial` names.
    public var platformSerial: String
    /// Where WeChat Pay posts notifications: this server's `/v1/payments/wechatpay/notify`.
    public var notifyURL: URL
    public var api: URL
}

public struct AlipaySettings: Sendable {
    public var appID: String
    public var privateKey: ProviderSecret
    /// Alipay's public key (PEM or bare base64): what its notifications and answers are verified with.
    public var alipayPublicKey: [UInt8]
    /// Where Alipay posts notifications: this server's `/v1/payments/alipay/notify`.
    public var notifyURL: URL
    public var gateway: URL
}

/// A key or secret a provider gave the operator: used, never shown. Printing one, interpolating it or
/// dumping it shows `(secret)`, so no answer, log line or error message can carry it by mistake.
public struct ProviderSecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret's bytes, for the one place that signs or authenticates with it.
    public let bytes: [UInt8]
    public init(_ text: String) { bytes = Array(text.utf8) }
    public init(bytes: [UInt8]) { self.bytes = bytes }
    public var text: String { String(decoding: bytes, as: UTF8.self) }
    public var description: String { "(secret)" }
    public var debugDescription: String { "(secret)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
