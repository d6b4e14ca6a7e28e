/// A hashcash-style proof of work, the waiting room's price of a join (docs/API.md, Waiting room): a
/// solution to a challenge at `bits` is a decimal number `s` such that SHA-256(challenge "." s) begins
/// with `bits` zero bits. Checking costs one hash; finding one costs 2^bits hashes on average, the same
/// for a browser, a native app or a bot, so a farm's thousand joins cost it a thousand times a fan's one.
/// The browser's solver (js/proof-of-work.js) is tested against vectors this type writes.
public enum ProofOfWork {
    /// The leading zero bits of `digest`.
    /// - Complexity: O(digest length).
    public static func zeroBits(_ digest: [UInt8]) -> Int {
        var n = 0
        for byte in digest {
            if byte == 0 { n += 8; continue }
            return n + byte.leadingZeroBitCount
        }
        return n
    }

    /// The leading zero bits of SHA-256(`challenge` "." `solution`).
    public static func work(challenge: String, solution: String) -> Int {
        var h = SHA256()
        h.update(challenge)
        h.update(".")
        h.update(solution)
        return zeroBits(h.finalize())
    }

    /// Whether `solution` (1 to 20 decimal digits) solves `challenge` at `bits`.
    /// - Complexity: one SHA-256 of the challenge's length.
    public static func isSolved(challenge: String, solution: String, bits: Int) -> Bool {
        guard (1...20).contains(solution.utf8.count), solution.utf8.allSatisfy({ (48...57).contains($0) }) else { return false }
        return work(challenge: challenge, solution: solution) >= bits
    }

    /// The smallest solution (0, 1, 2, …) of `challenge` at `bits`: what a native app runs before joining.
    /// - Complexity: about 2^bits hashes.
    public static func solve(challenge: String, bits: Int) -> String {
        let head = Array((challenge + ".").utf8)
        var digest = [UInt8](repeating: 0, count: 32)
        var n: UInt64 = 0
        while true {
            let text = Array(String(n).utf8)
            head.withUnsafeBytes { h in
                text.withUnsafeBytes { t in digest.withUnsafeMutableBufferPointer { SHA256.digest(h, t, into: $0.baseAddress!) } }
            }
            if zeroBits(digest) >= bits { return String(n) }
            n += 1
        }
    }
}
