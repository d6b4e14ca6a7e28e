import Foundation
import Testing

@testable import SeatPayments

/// `--payments FILE`: every provider's line read, every mistake refused naming its line, and no secret
/// ever printed.
@Suite struct PaymentSettingsTests {
    /// The test-only keys (Tests/Payments/keys): real RSA keys and certificates in the shapes the providers
    /// hand out, so a file is checked for what it must be.
    static let keys = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Payments/keys")
    static func key(_ name: String) -> [UInt8] { (try? Array(Data(contentsOf: keys.appendingPathComponent(name)))) ?? [] }
    static let files: [String: [UInt8]] = [
        "/etc/seatkit/wx-key.pem": key("merchant-key.pem"), "/etc/seatkit/wx-platform.pem": key("platform-cert.pem"),
        "/etc/seatkit/ali-key.pem": key("alipay-app-key.pem"), "/etc/seatkit/ali-public.txt": key("alipay-public.txt"),
        "/etc/seatkit/empty.pem": [], "/etc/seatkit/not-pem.txt": Array("hello".utf8),
        "/etc/seatkit/garbled.pem": Array("-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n".utf8),
    ]
    static let stripeKey = "sk_test_51Hx9AbCdEfGhIjKl", webhookSecret = "whsec_q8K2mZpR4tY7uW1x", apiV3Key = "0123456789abcdef0123456789ABCDEF"

    func parse(_ text: String) throws -> PaymentSettings {
        try PaymentSettings(file: text, path: "/etc/seatkit/payments.txt", read: { Self.files[$0] })
    }

    @Test func everyProviderIsReadAndNoSecretIsShown() throws {
        let settings = try parse(
            """
            # Cinema payments
            stripe secretKey=\(Self.stripeKey) webhookSecret=\(Self.webhookSecret) api=http://127.0.0.1:8420

            wechatpay mchid=1900009191 appid=wxd678efh567hg6787 serial=5157F09EFDC096DE15EBE81A47057A7232F1B8E1 privateKey=wx-key.pem apiV3Key=\(Self.apiV3Key) platformCert=/etc/seatkit/wx-platform.pem notifyUrl=https://tickets.example.cn/v1/payments/wechatpay/notify
            alipay appId=2021000117600000 privateKey=ali-key.pem alipayPublicKey=ali-public.txt notifyUrl=https://tickets.example.cn/v1/payments/alipay/notify gateway=http://127.0.0.1:9000/gateway.do
            cash   # the counter
            """)
        #expect(settings.takesMoneyOnline && settings.cash)
        #expect(settings.onlineProviders == ["stripe", "wechatpay", "alipay"])
        #expect(settings.stripe?.api.absoluteString == "http://127.0.0.1:8420" && settings.stripe?.secretKey.text == Self.stripeKey)
        #expect(settings.wechatpay?.mchid == "1900009191" && settings.wechatpay?.api.absoluteString == "https://api.mch.weixin.qq.com")
        #expect(settings.alipay?.alipayPublicKey == Self.key("alipay-public.txt"))
        // The platform certificate's serial: what a notification's Wechatpay-Serial must name.
        #expect(settings.wechatpay?.platformSerial == "5157F09EFDC096DE15EBE81A47057A7232F1B8E1")
        // However it is printed, a secret is not in it.
        let printed = [
            settings.description, String(describing: settings), String(reflecting: settings), "\(settings.stripe!)", "\(settings.wechatpay!)",
            "\(settings.alipay!)", String(reflecting: settings.stripe!),
        ]
        for text in printed {
            #expect(!text.contains(Self.stripeKey) && !text.contains(Self.webhookSecret) && !text.contains(Self.apiV3Key), "\(text)")
            #expect(!text.contains("MII"), "\(text)")
        }
        #expect(settings.description == "payments: stripe, wechatpay, alipay, cash")
    }

    @Test func aPublishableKeyPutsTheCardFormOnThePage() throws {
        let stripe = try parse("stripe secretKey=\(Self.stripeKey) webhookSecret=\(Self.webhookSecret) publishableKey=pk_test_abc\n").stripe
        #expect(stripe?.publishableKey == "pk_test_abc")
        #expect(stripe?.script.absoluteString == "https://js.stripe.com/v3/")
        #expect(stripe?.pageOrigins.frame == ["https://js.stripe.com", "https://hooks.stripe.com"])
        // A local stand-in (localstripe) serves its own Stripe.js beside its API.
        let local = try parse("stripe secretKey=\(Self.stripeKey) webhookSecret=\(Self.webhookSecret) publishableKey=pk_test_abc api=http://127.0.0.1:8420\n")
        #expect(local.stripe?.script.absoluteString == "http://127.0.0.1:8420/js.stripe.com/v3/")
        #expect(local.stripe?.pageOrigins.connect == ["http://127.0.0.1:8420"])
        #expect(try parse("stripe secretKey=\(Self.stripeKey) webhookSecret=\(Self.webhookSecret)\n").stripe?.publishableKey == nil)
    }

    @Test func cashAloneTakesNoMoneyOnline() throws {
        let settings = try parse("cash\n")
        #expect(!settings.takesMoneyOnline && settings.onlineProviders.isEmpty)
        #expect(try !parse("").takesMoneyOnline)
    }

    @Test func aMistakeIsRefusedNamingItsLine() {
        let stripe = "stripe secretKey=\(Self.stripeKey) webhookSecret=\(Self.webhookSecret)"
        let wechat = "wechatpay mchid=1900009191 appid=wx1 serial=AB privateKey=wx-key.pem platformCert=wx-platform.pem notifyUrl=https://t.example/n"
        let alipay = "alipay appId=1 privateKey=ali-key.pem alipayPublicKey=ali-public.txt notifyUrl=https://t.example/n"
        let cases: [(String, String)] = [
            ("cash\npaypal key=1", "payments.txt:2: unknown provider \"paypal\" (stripe, wechatpay, alipay or cash)"),
            ("stripe secretKey=\(Self.stripeKey)", "payments.txt:1: webhookSecret= is missing"),
            ("stripe secretKey=pk_live_1 webhookSecret=\(Self.webhookSecret)", "payments.txt:1: secretKey= is a Stripe secret key (sk_… or rk_…)"),
            ("stripe secretKey=\(Self.stripeKey) webhookSecret=abc", "payments.txt:1: webhookSecret= is the endpoint's signing secret (whsec_…)"),
            ("\(stripe)\n\n\(stripe)", "payments.txt:3: stripe is configured twice"),
            ("\(stripe) api=ftp://x", "payments.txt:1: api= is an http(s) URL without a query, got \"ftp://x\""),
            ("\(stripe) region=eu", "payments.txt:1: stripe takes no region="),
            ("\(stripe) secretKey=\(Self.stripeKey)", "payments.txt:1: secretKey= is given twice"),
            ("\(stripe) =x", "payments.txt:1: expected key=value, got \"=x\""),
            ("\(stripe) publishableKey=sk_test_1", "payments.txt:1: publishableKey= is a Stripe publishable key (pk_…)"),
            (
                "\(stripe) publishableKey=pk_live_1",
                "payments.txt:1: publishableKey= and secretKey= are one test and one live key: both pk_test_/sk_test_ or both live"
            ),
            ("\(wechat) apiV3Key=short", "payments.txt:1: apiV3Key= is the 32-character API v3 key (got 5 characters)"),
            (
                "\(wechat) apiV3Key=\(Self.apiV3Key)".replacingOccurrences(of: "mchid=1900009191", with: "mchid=19x"),
                "payments.txt:1: mchid= is the merchant's number (digits only), got \"19x\""
            ),
            (
                "\(wechat) apiV3Key=\(Self.apiV3Key)".replacingOccurrences(of: "wx-key.pem", with: "missing.pem"),
                "payments.txt:1: privateKey=missing.pem: cannot read that file"
            ),
            (
                "\(wechat) apiV3Key=\(Self.apiV3Key)".replacingOccurrences(of: "wx-key.pem", with: "empty.pem"),
                "payments.txt:1: privateKey=empty.pem: cannot read that file"
            ),
            (
                alipay.replacingOccurrences(of: "ali-key.pem", with: "not-pem.txt"),
                "payments.txt:1: privateKey=not-pem.txt: not an RSA private key (PEM, or the bare base64 the provider's key tool writes)"
            ),
            (
                alipay.replacingOccurrences(of: "ali-key.pem", with: "garbled.pem"),
                "payments.txt:1: privateKey=garbled.pem: not an RSA private key (PEM, or the bare base64 the provider's key tool writes)"
            ),
            (
                alipay.replacingOccurrences(of: "ali-public.txt", with: "ali-key.pem"),
                "payments.txt:1: alipayPublicKey=ali-key.pem: not an RSA public key or certificate (PEM, or the bare base64 the provider's key tool writes)"
            ),
            (
                "\(wechat) apiV3Key=\(Self.apiV3Key)".replacingOccurrences(of: "platformCert=wx-platform.pem", with: "platformCert=wx-key.pem"),
                "payments.txt:1: platformCert=wx-key.pem: not a PEM certificate with an RSA key"
            ),
            (alipay.replacingOccurrences(of: " notifyUrl=https://t.example/n", with: ""), "payments.txt:1: notifyUrl= is missing"),
        ]
        for (text, expected) in cases {
            do {
                _ = try parse(text)
                Issue.record("accepted: \(text)")
            } catch let problem as PaymentSettings.Problem {
                #expect(problem.description == "/etc/seatkit/" + expected)
                #expect(!problem.description.contains(Self.stripeKey) && !problem.description.contains(Self.apiV3Key))
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
