import Foundation
import SeatSecrets
import Testing

@testable import SeatPayments

/// Stripe's webhook signatures, checked against Stripe's own Python library (PyPI `stripe`, which
/// `make test` installs): a header it makes is accepted here, one made here is accepted there, and a
/// tampered body, another secret, an old or future timestamp and a malformed header are refused.
@Suite struct StripeSignatureTests {
    static let secret = ProviderSecret("whsec_3kP9vLm2QxZ7rT1n")
    static let body = Array(#"{"id":"evt_1","type":"payment_intent.succeeded","data":{"object":{"id":"pi_1","amount":5800,"currency":"cny"}}}"#.utf8)

    /// Runs Stripe's library: `script` reads the body from stdin; what it prints.
    func python(_ script: String, input: [UInt8]) throws -> String {
        let p = Process()
        // The python3 on the PATH: the one `make payment-deps` installed the library for.
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = stderr
        try p.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "python3 with Stripe's library (pip install stripe): \(err)")
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func stripesOwnLibraryAndThisAgree() throws {
        let now = Int(Date().timeIntervalSince1970)
        // Stripe's library signs; this verifies.
        let theirs = try python(
            """
            import sys, stripe
            body = sys.stdin.buffer.read().decode()
            t = \(now - 20)
            print("t=%d,v1=%s" % (t, stripe.WebhookSignature._compute_signature("%d.%s" % (t, body), "\(Self.secret.text)")))
            """, input: Self.body)
        #expect(try StripeSignature.verify(header: theirs, body: Self.body, secret: Self.secret, now: now) == now - 20)
        // This signs; Stripe's library verifies.
        let ours = StripeSignature.header(body: Self.body, secret: Self.secret, timestamp: now)
        let verdict = try python(
            """
            import sys, stripe
            print(stripe.WebhookSignature.verify_header(sys.stdin.buffer.read().decode(), "\(ours)", "\(Self.secret.text)", tolerance=300))
            """, input: Self.body)
        #expect(verdict == "True")
    }

    @Test func whatIsNotStripesIsRefused() {
        let now = 1_800_000_000
        let good = StripeSignature.header(body: Self.body, secret: Self.secret, timestamp: now)
        func failure(_ header: String?, body: [UInt8] = Self.body, secret: ProviderSecret = Self.secret) -> StripeSignature.Failure? {
            do {
                try StripeSignature.verify(header: header, body: body, secret: secret, now: now)
                return nil
            } catch { return error }
        }
        #expect(failure(good) == nil)
        // During a secret's roll two v1s come; either may match.
        #expect(failure("t=\(now),v1=" + String(repeating: "ab", count: 32) + "," + good.split(separator: ",")[1]) == nil)
        #expect(failure(good, body: Self.body + [0x20]) == .mismatch)
        #expect(failure(good, secret: ProviderSecret("whsec_other")) == .mismatch)
        #expect(failure(StripeSignature.header(body: Self.body, secret: Self.secret, timestamp: now - 301)) == .stale(age: 301))
        #expect(failure(StripeSignature.header(body: Self.body, secret: Self.secret, timestamp: now + 400)) == .stale(age: -400))
        #expect(failure(nil) == .malformed("missing"))
        #expect(failure("v1=" + String(repeating: "0", count: 64)) == .malformed("no t= timestamp"))
        #expect(failure("t=\(now),v1=xyz") == .malformed("no v1= signature"))
        #expect(failure("t=\(now),v0=" + String(good.split(separator: "=").last!)) == .malformed("no v1= signature"))
    }
}
