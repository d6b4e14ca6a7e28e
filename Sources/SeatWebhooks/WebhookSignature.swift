import Foundation
import SeatSecrets

/// Standard Webhooks signatures (what Svix and others send, and PyPI's `standardwebhooks` verifies): the
/// headers `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature`, which is `v1,` and
/// the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under the key the secret's base64 (after
/// `whsec_`) decodes to. Several signatures may be given space-separated during a key rotation.
public enum WebhookSignature {
    /// A new endpoint secret: `whsec_` and 24 random bytes in base64 (192 bits).
    public static func newSecret() -> String {
        var g = SystemRandomNumberGenerator()
        return "whsec_" + Data((0..<24).map { _ in g.next() as UInt8 }).base64EncodedString()
    }

    /// The key a secret stands for; nil for a secret that is not `whsec_` and base64 of 24 to 64 bytes.
    public static func key(_ secret: String) -> [UInt8]? {
        guard secret.hasPrefix("whsec_"), let bytes = Data(base64Encoded: String(secret.dropFirst(6))), (24...64).contains(bytes.count) else {
            return nil
        }
        return Array(bytes)
    }

    /// `v1,<base64>` for the message.
    public static func sign(id: String, timestamp: Int, body: [UInt8], secret: String) -> String? {
        guard let key = key(secret) else { return nil }
        let message = Array("\(id).\(timestamp).".utf8) + body
        return "v1," + Data(HMACSHA256.code(key: key, message: message)).base64EncodedString()
    }

    /// Whether one of the header's signatures signs the message with `secret`, within `tolerance` s.
    public static func verify(id: String, timestamp: Int, body: [UInt8], header: String, secret: String, now: Int, tolerance: Int = 300) -> Bool {
        guard abs(now - timestamp) <= tolerance, let key = key(secret) else { return false }
        let message = Array("\(id).\(timestamp).".utf8) + body
        return header.split(separator: " ").contains { part in
            guard part.hasPrefix("v1,"), let given = Data(base64Encoded: String(part.dropFirst(3))) else { return false }
            return HMACSHA256.verify(Array(given), key: key, message: message)
        }
    }
}

/// When a delivery that failed is tried again: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after each
/// failure (Svix's schedule, about 28 hours in all); after the last, it has failed. An endpoint whose
/// every delivery failed for 3 days is switched off (pretix gives up after 3 days too; a 410 Gone at
/// once).
public enum RetrySchedule {
    public static let delays: [Int64] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]
    public static let disableAfter: Int64 = 3 * 86_400_000

    /// The delay before the next try after `attempts` tries that failed; nil when there is none.
    public static func delay(afterAttempts attempts: Int) -> Int64? {
        attempts >= 1 && attempts <= delays.count ? delays[attempts - 1] : nil
    }
}

/// An endpoint's secret kept sealed in the store (AES-256-GCM under a key derived from the server's own,
/// which the store never holds): a copy of the database cannot sign as SeatKit.
public struct SecretBox: Sendable {
    let key: [UInt8]

    /// The box whose key derives from `serverKey` (the admin key, as every instance has it).
    public init(serverKey: String) {
        key = HMACSHA256.code(key: Array(serverKey.utf8), message: Array("seatkit webhook secrets v1".utf8))
    }

    public func seal(_ secret: String) -> String {
        var g = SystemRandomNumberGenerator()
        let nonce = (0..<12).map { _ in g.next() as UInt8 }
        let sealed = AES256GCM.seal(Array(secret.utf8), key: key, nonce: nonce, associatedData: []) ?? []
        return Data(nonce + sealed).base64EncodedString()
    }

    /// The secret; nil when it was sealed under another key (another server's), or changed.
    public func open(_ text: String) -> String? {
        guard let bytes = Data(base64Encoded: text), bytes.count > 28 else { return nil }
        let all = Array(bytes)
        return AES256GCM.open(Array(all[12...]), key: key, nonce: Array(all[..<12]), associatedData: []).map { String(decoding: $0, as: UTF8.self) }
    }
}
