import Foundation
import SeatSecrets

/// Stripe's webhook signature: `Stripe-Signature: t=TIMESTAMP,v1=HEX[,v1=HEX…]`, each `v1` the
/// HMAC-SHA256 of `TIMESTAMP.BODY` under the endpoint's `whsec_…` secret (the whole string is the key,
/// as Stripe's libraries use it). Several `v1`s come while a secret is rolled; one matching is enough.
/// A timestamp more than `tolerance` seconds old (Stripe's libraries: 300) is a replay; one as far in
/// the future is refused too.
public enum StripeSignature {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No header, or one without a timestamp or a `v1` signature.
        case malformed(String)
        /// Signed `age` seconds ago (negative: ahead of this clock), past the tolerance.
        case stale(age: Int)
        /// No `v1` is the body's signature under the secret.
        case mismatch

        public var description: String {
            switch self {
            case .malformed(let why): "Stripe-Signature: \(why)"
            case .stale(let age): "Stripe-Signature: signed \(age) s \(age < 0 ? "ahead" : "ago"), past the tolerance"
            case .mismatch: "Stripe-Signature: no v1 signature matches the body"
            }
        }
    }

    /// Checks `header` against `body`; returns the signed timestamp.
    /// - Complexity: O(body + signatures).
    @discardableResult
    public static func verify(header: String?, body: [UInt8], secret: ProviderSecret, now: Int, tolerance: Int = 300) throws(Failure) -> Int {
        guard let header, !header.isEmpty else { throw .malformed("missing") }
        var timestamp: Int?
        var signatures: [[UInt8]] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0].trimmingCharacters(in: .whitespaces) {
            case "t": timestamp = Int(pair[1])
            case "v1": if let bytes = hex(pair[1]) { signatures.append(bytes) }
            default: continue  // v0 (test mode's), or a scheme added later
            }
        }
        guard let timestamp else { throw .malformed("no t= timestamp") }
        guard !signatures.isEmpty else { throw .malformed("no v1= signature") }
        let age = now - timestamp
        guard abs(age) <= tolerance else { throw .stale(age: age) }
        let signed = Array("\(timestamp).".utf8) + body
        guard signatures.contains(where: { HMACSHA256.verify($0, key: secret.bytes, message: signed) }) else { throw .mismatch }
        return timestamp
    }

    /// The header Stripe sends for `body` at `timestamp` (what a test's provider signs with).
    public static func header(body: [UInt8], secret: ProviderSecret, timestamp: Int) -> String {
        let code = HMACSHA256.code(key: secret.bytes, message: Array("\(timestamp).".utf8) + body)
        return "t=\(timestamp),v1=" + SHA256.hex(code)
    }

    static func hex(_ text: Substring) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(32)
        var k = 0
        while k < digits.count {
            guard let hi = nibble(digits[k]), let lo = nibble(digits[k + 1]) else { return nil }
            out.append(hi << 4 | lo)
            k += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }
}
