import SeatSecrets

/// A pass into a waiting room's priority lane, issued by a manager to hand out (a fan club's members):
/// signed by the server (HMAC-SHA-256 under its queue key, 128 bits kept), so any instance checks it
/// without a store read; each joins once (the room keeps its digest). `lp1.<show>.<lane>.<serial>.<code>`.
public struct LanePass: Sendable, Hashable {
    public var showID: String
    public var lane: String
    public var serial: String

    static let prefix = "lp1"

    /// Why a pass is not accepted.
    public enum Problem: Error, Sendable, Equatable {
        case malformed
        case forged
        case otherShow(String)
        /// Its lane is not one of the room's (any more).
        case noLane(String)
    }

    /// `count` new passes into `lane` of `show`.
    public static func issue(show: String, lane: String, count: Int, key: [UInt8]) -> [String] {
        var rng = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let serial = String(UInt64.random(in: .min ... .max, using: &rng), radix: 36)
            return LanePass(showID: show, lane: lane, serial: serial).token(key: key)
        }
    }

    var signed: String { "\(Self.prefix).\(showID).\(lane).\(serial)" }

    public func token(key: [UInt8]) -> String {
        signed + "." + String(SHA256.hex(HMACSHA256.code(key: key, message: Array(signed.utf8))).prefix(32))
    }

    /// What the room keeps of a spent pass.
    public static func spentKey(_ token: String) -> String { String(SHA256.hex(SHA256.hash("seatkit-lane-pass\u{1F}" + token)).prefix(32)) }

    /// The pass `token` is, when it is this server's and for `show`.
    public static func verify(_ token: String, show: String, key: [UInt8]) -> Result<LanePass, Problem> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard token.utf8.count <= 200, parts.count == 5, parts[0] == prefix, parts[4].utf8.count == 32 else { return .failure(.malformed) }
        let pass = LanePass(showID: parts[1], lane: parts[2], serial: parts[3])
        let expected = String(SHA256.hex(HMACSHA256.code(key: key, message: Array(pass.signed.utf8))).prefix(32))
        // Compared in constant time: a pass is a capability.
        guard expected.utf8.count == parts[4].utf8.count, zip(expected.utf8, parts[4].utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else {
            return .failure(.forged)
        }
        guard pass.showID == show else { return .failure(.otherShow(pass.showID)) }
        return .success(pass)
    }
}
