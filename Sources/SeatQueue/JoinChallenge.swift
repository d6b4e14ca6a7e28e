import SeatSecrets

/// A proof-of-work challenge a buyer solves before joining a room that asks for one
/// (`GET /v1/shows/{id}/queue/challenge`): signed by the server (HMAC-SHA-256 under its queue key), so
/// any instance checks it without a store read; bound to the show, the bits it was issued at and its
/// issue time (valid 5 minutes); each spent by one join only (the room keeps its digest).
/// `pw1.<show>.<bits>.<issued ms>.<nonce hex>.<code hex>`.
public struct JoinChallenge: Sendable, Hashable {
    public var showID: String
    public var bits: Int
    public var issuedAt: Int64
    public var nonce: String

    /// 5 minutes: 20 bits take a phone's browser a few seconds; a challenge hoarded for later is stale.
    public static let lifetimeMilliseconds: Int64 = 300_000
    static let prefix = "pw1"

    /// Why a join's proof is not accepted, each its own problem at the API.
    public enum Problem: Error, Sendable, Equatable {
        case malformed
        case forged
        case expired
        case otherShow(String)
        /// Issued at fewer bits than the room asks now (it was raised meanwhile): solve a new one.
        case tooEasy(asked: Int)
        case unsolved
    }

    /// A new challenge for `show` at `bits`.
    public static func issue(show: String, bits: Int, now: Int64, key: [UInt8]) -> (challenge: JoinChallenge, token: String) {
        var rng = SystemRandomNumberGenerator()
        let nonce = (0..<2).map { _ in String(UInt64.random(in: .min ... .max, using: &rng), radix: 16) }.joined(separator: "x")
        let c = JoinChallenge(showID: show, bits: bits, issuedAt: now, nonce: nonce)
        return (c, c.token(key: key))
    }

    var signed: String { "\(Self.prefix).\(showID).\(bits).\(issuedAt).\(nonce)" }

    public func token(key: [UInt8]) -> String { signed + "." + SHA256.hex(HMACSHA256.code(key: key, message: Array(signed.utf8))) }

    public var expiresAt: Int64 { issuedAt + Self.lifetimeMilliseconds }

    /// What the room keeps of a spent challenge: a digest of its token.
    public static func spentKey(_ token: String) -> String { String(SHA256.hex(SHA256.hash("seatkit-join-proof\u{1F}" + token)).prefix(32)) }

    /// The challenge `token` carries, when it is this server's, for `show`, not expired at `now`, issued
    /// at `bits` or more, and `solution` solves it: one HMAC and one SHA-256.
    public static func verify(_ token: String, solution: String, show: String, bits: Int, now: Int64, key: [UInt8]) -> Result<JoinChallenge, Problem> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard token.utf8.count <= 400, parts.count == 6, parts[0] == prefix, let b = Int(parts[2]), let issued = Int64(parts[3]),
            parts[5].utf8.count == 64, let code = Admission.bytes(hex: parts[5])
        else { return .failure(.malformed) }
        let c = JoinChallenge(showID: parts[1], bits: b, issuedAt: issued, nonce: parts[4])
        guard HMACSHA256.verify(code, key: key, message: Array(c.signed.utf8)) else { return .failure(.forged) }
        guard c.showID == show else { return .failure(.otherShow(c.showID)) }
        guard now < c.expiresAt, issued <= now + 60_000 else { return .failure(.expired) }
        guard c.bits >= bits else { return .failure(.tooEasy(asked: bits)) }
        guard ProofOfWork.isSolved(challenge: token, solution: solution, bits: c.bits) else { return .failure(.unsolved) }
        return .success(c)
    }
}
