import Foundation
import SeatSecrets
import Testing

@testable import SeatPayments

/// The pieces WeChat Pay and Alipay are checked with, on their own: RSA-SHA256 with the test keys in every
/// shape they come in, AES-256-GCM, Alipay's amounts and the exact text its answers are signed over. The
/// providers' own SDKs check them end to end (ChinaPaymentTests, against Tests/Payments/sandbox.py).
@Suite struct ProviderCryptoTests {
    static func key(_ name: String) -> String { String(decoding: PaymentSettingsTests.key(name), as: UTF8.self) }

    @Test func aSignatureVerifiesWithItsKeyOnlyWhateverShapeTheKeyIsIn() throws {
        let message = Array("GET\n/v3/pay/transactions/out-trade-no/1217752501201407033233368018?mchid=1900009191\n1554208460\nNONCE\n\n".utf8)
        // PKCS#8 signs; its certificate verifies. PKCS#1 signs; the PEM public key verifies.
        let merchant = try RSASHA256.sign(message, privateKeyPEM: Self.key("merchant-key.pem"))
        #expect(merchant.count == 256)
        #expect(RSASHA256.verify(merchant, of: message, publicKeyPEM: Self.key("merchant-cert.pem")))
        let app = try RSASHA256.sign(message, privateKeyPEM: Self.key("alipay-app-key.pem"))
        #expect(RSASHA256.verify(app, of: message, publicKeyPEM: Self.key("alipay-app-public.pem")))
        // PKCS#1 v1.5 is deterministic: the same key and text, the same signature.
        #expect(try RSASHA256.sign(message, privateKeyPEM: Self.key("merchant-key.pem")) == merchant)
        // Another key, another text, a changed byte: no.
        #expect(!RSASHA256.verify(merchant, of: message, publicKeyPEM: Self.key("platform-cert.pem")))
        #expect(!RSASHA256.verify(merchant, of: message + [0x0A], publicKeyPEM: Self.key("merchant-cert.pem")))
        var changed = merchant
        changed[17] ^= 1
        #expect(!RSASHA256.verify(changed, of: message, publicKeyPEM: Self.key("merchant-cert.pem")))
        // Alipay's public key as its console shows it: bare base64, no PEM lines.
        let alipay = try RSASHA256.sign(message, privateKeyPEM: Self.key("alipay-key.pem"))
        #expect(RSASHA256.verify(alipay, of: message, publicKeyPEM: Self.key("alipay-public.txt")))
        #expect(try RSASHA256.keyBits(Self.key("alipay-public.txt"), privateKey: false) == 2048)
        #expect(throws: RSASHA256.Failure.notAKey("private key")) { try RSASHA256.sign(message, privateKeyPEM: Self.key("merchant-cert.pem")) }
        #expect(RSASHA256.certificateSerial(Self.key("platform-cert.pem")) == "5157F09EFDC096DE15EBE81A47057A7232F1B8E1")
        #expect(RSASHA256.certificateSerial(Self.key("merchant-key.pem")) == nil)
    }

    @Test func aSealedResourceOpensWithItsKeyNonceAndDataOnly() throws {
        let key = Array("SeatKitSandboxApiV3Key0123456789".utf8), nonce = Array("fdasflkja484".utf8), aad = Array("transaction".utf8)
        let plain = Array(#"{"out_trade_no":"1217752501201407033233368018","trade_state":"SUCCESS"}"#.utf8)
        let sealed = try #require(AES256GCM.seal(plain, key: key, nonce: nonce, associatedData: aad))
        #expect(sealed.count == plain.count + 16)
        #expect(AES256GCM.open(sealed, key: key, nonce: nonce, associatedData: aad) == plain)
        #expect(AES256GCM.open(sealed, key: Array("AnotherMerchantsApiV3Key01234567".utf8), nonce: nonce, associatedData: aad) == nil)
        #expect(AES256GCM.open(sealed, key: key, nonce: Array("fdasflkja485".utf8), associatedData: aad) == nil)
        #expect(AES256GCM.open(sealed, key: key, nonce: nonce, associatedData: Array("refund".utf8)) == nil)
        var changed = sealed
        changed[3] ^= 1
        #expect(AES256GCM.open(changed, key: key, nonce: nonce, associatedData: aad) == nil)
        #expect(AES256GCM.open(sealed, key: Array(key.prefix(16)), nonce: nonce, associatedData: aad) == nil)
    }

    @Test func alipaysAmountsAndSignedTextAreExact() {
        #expect(AlipayClient.yuan(11600) == "116.00" && AlipayClient.yuan(5) == "0.05" && AlipayClient.yuan(3330) == "33.30")
        #expect(AlipayClient.fen("116.00") == 11600 && AlipayClient.fen("0.5") == 50 && AlipayClient.fen("33") == 3300)
        for bad in ["", "1.005", "-1.00", "1e3", "１.00", "1,00", ".5"] { #expect(AlipayClient.fen(bad) == nil, "\(bad)") }
        // Sorted by name, empty values left out, sign and sign_type left to the caller.
        #expect(
            AlipayClient.signedText(["total_amount": "2.00", "app_id": "2014072300007148", "body": "", "out_trade_no": "6823789339978248"])
                == "app_id=2014072300007148&out_trade_no=6823789339978248&total_amount=2.00")
        // The object's exact text, as signed: braces in strings and escapes do not end it early.
        let answer = #"{"alipay_trade_query_response":{"code":"10000","msg":"Success","subject":"a } \" {","n":{"x":1}},"sign":"abc"}"#
        #expect(
            AlipayClient.rawObject(named: "alipay_trade_query_response", in: answer) == #"{"code":"10000","msg":"Success","subject":"a } \" {","n":{"x":1}}"#)
        #expect(AlipayClient.rawObject(named: "alipay_trade_close_response", in: answer) == nil)
    }
}
