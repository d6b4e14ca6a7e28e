import CCrypto
import Foundation

/// Console passwords kept as scrypt digests (RFC 7914, through libcrypto): `scrypt$15$8$1$SALT$HASH`,
/// the cost (log2 N, r, p), a 16-byte random salt and a 32-byte hash, both base64. A copy of the store
/// gives a guesser about 60 ms of work a guess a password (N = 2^15, 32 MiB each). Any thread.
public enum PasswordDigest {
    static let logN = 15, r = 8, p = 1

    /// A new digest of `password` with a fresh salt.
    /// - Complexity: one scrypt, ~60 ms and 32 MiB.
    public static func make(_ password: String) -> String {
        var g = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in g.next() as UInt8 }
        let hash = scrypt(password, salt: salt, logN: logN, r: r, p: p) ?? []
        return "scrypt$\(logN)$\(r)$\(p)$\(Data(salt).base64EncodedString())$\(Data(hash).base64EncodedString())"
    }

    /// Whether `password` is the one `digest` was made from, compared in constant time. A digest that
    /// is not one (or asks for more than 2^20 of N) is no one's.
    public static func verify(_ password: String, against digest: String) -> Bool {
        let parts = digest.split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt", let logN = Int(parts[1]), (10...20).contains(logN), let r = Int(parts[2]), (1...32).contains(r),
            let p = Int(parts[3]), (1...4).contains(p), let salt = Data(base64Encoded: parts[4]), let expected = Data(base64Encoded: parts[5]),
            expected.count == 32, let hash = scrypt(password, salt: Array(salt), logN: logN, r: r, p: p)
        else { return false }
        return ConstantTime.equal(hash, Array(expected))
    }

    /// Why `password` will not do for `name`, or nil: 10 to 200 characters, not the name, not one
    /// character repeated.
    public static func problem(_ password: String, name: String) -> String? {
        let length = password.unicodeScalars.count
        if length < 10 || length > 200 { return "a password is 10 to 200 characters, this one has \(length)" }
        if password.lowercased().contains(name.lowercased()) { return "a password does not contain the operator's name" }
        if Set(password.unicodeScalars).count < 4 { return "a password has at least 4 different characters" }
        return nil
    }

    static func scrypt(_ password: String, salt: [UInt8], logN: Int, r: Int, p: Int) -> [UInt8]? {
        let bytes = Array(password.utf8)
        var out = [UInt8](repeating: 0, count: 32)
        let ok = seatkit_scrypt(bytes, bytes.count, salt, salt.count, 1 << UInt64(logN), UInt64(r), UInt64(p), &out, 32)
        return ok == 1 ? out : nil
    }
}

/// One-time codes (TOTP, RFC 6238: HMAC-SHA-1, 30-second steps, 6 digits), what authenticator apps
/// show. A code is accepted one step either side of now (a phone's clock a little off); the step it
/// matched is answered so a code used once is refused again.
public enum TOTP {
    /// A new 160-bit secret (RFC 4226's recommended length).
    public static func newSecret() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<20).map { _ in g.next() as UInt8 }
    }

    /// The code of `secret` for the step holding `unixSeconds`.
    public static func code(secret: [UInt8], at unixSeconds: Int64, digits: Int = 6, step: Int64 = 30) -> String {
        code(secret: secret, counter: UInt64(max(0, unixSeconds) / step), digits: digits)
    }

    static func code(secret: [UInt8], counter: UInt64, digits: Int) -> String {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * $0)) }
        var mac = [UInt8](repeating: 0, count: 20)
        guard seatkit_hmac_sha1(secret, secret.count, message, message.count, &mac) == 1 else { fatalError("libcrypto could not compute HMAC-SHA-1") }
        let offset = Int(mac[19] & 0x0F)
        let value = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(value % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The step `code` is right for, within `window` steps of now; nil when it is none of them.
    public static func matchingStep(_ code: String, secret: [UInt8], at unixSeconds: Int64, window: Int64 = 1, step: Int64 = 30) -> Int64? {
        guard code.utf8.count == 6, code.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let now = unixSeconds / step
        for s in (now - window)...(now + window) where s >= 0 {
            if Self.code(secret: secret, counter: UInt64(s), digits: 6) == code { return s }
        }
        return nil
    }

    /// RFC 4648 base32 without padding: how an authenticator app takes a secret.
    public static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var out = "", buffer = 0, bits = 0
        for b in bytes {
            buffer = (buffer << 8) | Int(b); bits += 8
            while bits >= 5 { bits -= 5; out.append(alphabet[(buffer >> bits) & 31]) }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }

    /// RFC 4648 base32 back to bytes; nil for a character outside its alphabet.
    public static func base32Decode(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
        var out: [UInt8] = [], buffer = 0, bits = 0
        for c in text.utf8 {
            guard let v = alphabet.firstIndex(of: c) else { return nil }
            buffer = (buffer << 5) | v; bits += 5
            if bits >= 8 { bits -= 8; out.append(UInt8((buffer >> bits) & 0xFF)) }
        }
        return out
    }

    /// The `otpauth://` address an authenticator app scans (its QR code).
    public static func uri(secret: [UInt8], account: String, issuer: String = "SeatKit") -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let label = (issuer + ":" + account).addingPercentEncoding(withAllowedCharacters: allowed) ?? account
        return "otpauth://totp/\(label)?secret=\(base32(secret))&issuer=\(issuer)&algorithm=SHA1&digits=6&period=30"
    }
}

/// Comparing secrets in time independent of where they first differ (an early exit would tell a guesser
/// how much of a guess was right): HMAC codes, password hashes, CSRF tokens.
public enum ConstantTime {
    /// Whether `a` and `b` are equal; unequal lengths answer at once (lengths are not secret here).
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
