import Foundation
import Testing

@testable import SeatSecrets

/// The sign-in's cryptography against its standards' own vectors: scrypt (RFC 7914 §12), TOTP
/// (RFC 6238 appendix B, SHA-1) and base32 (RFC 4648 §10).
@Suite struct SignInSecretsTests {
    @Test func scryptMatchesRFC7914() throws {
        let out = try #require(PasswordDigest.scrypt("password", salt: Array("NaCl".utf8), logN: 10, r: 8, p: 16))
        #expect(out.map { String(format: "%02x", $0) }.joined() == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162")
    }

    @Test func aPasswordDigestOpensForItsPasswordOnly() {
        let digest = PasswordDigest.make("影城-correct horse")
        #expect(digest.hasPrefix("scrypt$15$8$1$"))
        #expect(PasswordDigest.verify("影城-correct horse", against: digest))
        #expect(!PasswordDigest.verify("影城-correct horsE", against: digest))
        #expect(PasswordDigest.make("影城-correct horse") != digest, "a fresh salt each time")
        // A digest that asks for absurd costs, or is not one, opens for nothing.
        #expect(!PasswordDigest.verify("x", against: "scrypt$30$8$1$AAAA$AAAA"))
        #expect(!PasswordDigest.verify("x", against: "sha256:abc"))
        #expect(PasswordDigest.problem("short", name: "li") != nil)
        #expect(PasswordDigest.problem("li.wei-2026-box", name: "li.wei") == "a password does not contain the operator's name")
        #expect(PasswordDigest.problem("aaaaaaaaaaaa", name: "li") != nil)
        #expect(PasswordDigest.problem("北城影城的夜班收银员", name: "li") == nil)
    }

    @Test func totpMatchesRFC6238() {
        let secret = Array("12345678901234567890".utf8)
        let vectors: [(Int64, String)] = [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"), (2_000_000_000, "69279037"),
            (20_000_000_000, "65353130"),
        ]
        for (t, code) in vectors { #expect(TOTP.code(secret: secret, at: t, digits: 8) == code, "T=\(t)") }
        #expect(TOTP.base32(secret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(TOTP.base32(Array("foobar".utf8)) == "MZXW6YTBOI")
    }

    @Test func aCodeIsAcceptedOneStepEitherSideOnly() {
        let secret = TOTP.newSecret(), now: Int64 = 1_796_000_015
        let code = TOTP.code(secret: secret, at: now)
        #expect(TOTP.matchingStep(code, secret: secret, at: now) == now / 30)
        #expect(TOTP.matchingStep(code, secret: secret, at: now + 30) == now / 30, "the phone a step behind")
        #expect(TOTP.matchingStep(code, secret: secret, at: now - 30) == now / 30, "the phone a step ahead")
        #expect(TOTP.matchingStep(code, secret: secret, at: now + 60) == nil)
        #expect(TOTP.matchingStep(code, secret: secret, at: now - 60) == nil)
        #expect(TOTP.matchingStep("12345", secret: secret, at: now) == nil)
        #expect(TOTP.uri(secret: secret, account: "li.wei").hasPrefix("otpauth://totp/SeatKit%3Ali.wei?secret="))
    }
}
