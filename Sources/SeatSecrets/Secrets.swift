/// What the store keeps of a client's secrets: enough to find a hold or a kept answer when the client
/// shows its secret again, never enough to act without it. A copy of the database (a backup, a stolen
/// disk, a read-only SQL login) yields no usable hold token and no kept answer in the clear.
public enum Secrets {
    /// What the store keeps for a hold token: the token's first 12 characters (its creation time in
    /// milliseconds as hex, not secret: the index on this column keeps growing at its end, which kept a
    /// batch of holds at 6 KB of WAL instead of 27 KB) and 160 bits of SHA-256 of the whole token. 52
    /// characters, so a plain 44-character token from an older store is told apart. A token of a
    /// deployment with shards starts with its shard's name and a dot (`east.…`): the digest keeps that
    /// too, so the store is found from the digest alone.
    public static func tokenDigest(_ token: String) -> String {
        var token = token
        return token.withUTF8 { t in
            let kept = keptPrefixLength(t)
            // An ASCII prefix (every token the server makes): written straight after it, on the stack.
            guard t.prefix(kept).allSatisfy({ $0 < 0x80 }) else { return slowTokenDigest(String(decoding: t, as: UTF8.self)) }
            return tokenDomain.withUTF8Buffer { domain in
                SHA256.hex(
                    ofDigestOf: UnsafeRawBufferPointer(domain), UnsafeRawBufferPointer(t), bytes: 20,
                    after: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(t)[0..<kept]))
            }
        }
    }

    /// How much of a token its digest keeps in the clear: a shard's name and its dot (a name is at most
    /// 12 characters), then 12 characters of time.
    static func keptPrefixLength(_ t: UnsafeBufferPointer<UInt8>) -> Int {
        let tag = t.prefix(13).firstIndex(of: UInt8(ascii: ".")).map { $0 + 1 } ?? 0
        return min(tag + 12, t.count)
    }

    private static let tokenDomain: StaticString = "seatkit-hold-token\u{1F}"

    /// The same digest through the general hasher: tokens of any length or script (a client's guess).
    static func slowTokenDigest(_ token: String) -> String {
        var copy = token
        let kept = copy.withUTF8 { keptPrefixLength($0) }
        let prefix = String(token.utf8.prefix(kept)).map { String($0) } ?? ""
        return prefix + SHA256.hex(Array(SHA256.hash("seatkit-hold-token\u{1F}" + token).prefix(20)))
    }

    public static let tokenDigestLength = 52

    /// The store's key for an `Idempotency-Key` in `scope`: a digest, so a database copy cannot replay.
    public static func idempotencyDigest(scope: String, key: String) -> String {
        SHA256.hex(SHA256.hash("seatkit-idempotency\u{1F}" + scope + "\u{1F}" + key))
    }

    /// Why `key` is not an acceptable `Idempotency-Key`, or nil. A key is a capability (whoever sends it
    /// with the same request gets the kept answer, hold token included), so it must be long enough to
    /// carry 128 random bits even in hex: 32 to 200 characters of `A–Z a–z 0–9 - _ . ~ + / =` (a UUID
    /// has 36). One rule a regular expression states exactly, so the OpenAPI document can.
    public static func idempotencyKeyProblem(_ key: String) -> String? {
        let bytes = Array(key.utf8)
        let format = "Idempotency-Key must be 32 to 200 characters of A–Z a–z 0–9 - _ . ~ + / = carrying at least 128 random bits (a UUID will do)"
        func isAllowed(_ c: UInt8) -> Bool {
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || [45, 95, 46, 126, 43, 47, 61].contains(c)  // - _ . ~ + / =
        }
        guard bytes.allSatisfy(isAllowed) else { return format + "; it has another character" }
        guard (32...200).contains(bytes.count) else { return format + "; got \(bytes.count) characters" }
        return nil
    }

    /// The same rule as a regular expression (the OpenAPI document's `pattern`).
    public static let idempotencyKeyPattern = "^[A-Za-z0-9_.~+/=-]{32,200}$"

    /// `body` encrypted (or decrypted: the same operation) under a keystream drawn from the client's
    /// key: SHA-256 of key, scope and block number, 32 bytes a block. Each (scope, key) seals one answer.
    public static func seal(_ body: [UInt8], scope: String, key: String) -> [UInt8] {
        var out = body
        var block = 0
        var offset = 0
        while offset < out.count {
            let stream = SHA256.hash("seatkit-answer\u{1F}" + scope + "\u{1F}" + key + "\u{1F}" + String(block))
            for k in 0..<min(32, out.count - offset) { out[offset + k] ^= stream[k] }
            offset += 32
            block += 1
        }
        return out
    }
}
