#if canImport(CryptoKit)
import CryptoKit
#else
import CCrypto
#endif

/// HMAC-SHA-256 (RFC 2104): what signs a waiting room's admissions, so the seat server can trust one it
/// issued without storing it. OpenSSL's libcrypto on Linux, CryptoKit on Apple platforms; checked
/// against RFC 4231's vectors.
public enum HMACSHA256 {
    /// The 32-byte code of `message` under `key`.
    /// - Complexity: O(key + message).
    public static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        #else
        return [UInt8](unsafeUninitializedCapacity: 32) { out, count in
            let ok = key.withUnsafeBytes { k in
                message.withUnsafeBytes { m in seatkit_hmac_sha256(k.baseAddress, k.count, m.baseAddress, m.count, out.baseAddress!) }
            }
            // Fails only without a SHA-256 provider or memory: nothing a signature could be trusted after.
            guard ok == 1 else { fatalError("libcrypto could not compute HMAC-SHA-256") }
            count = 32
        }
        #endif
    }

    /// Whether `code` is the code of `message` under `key`, compared in time independent of where they
    /// first differ (a byte-by-byte early exit would tell a forger how much of a guess was right).
    public static func verify(_ code: [UInt8], key: [UInt8], message: [UInt8]) -> Bool {
        ConstantTime.equal(code, Self.code(key: key, message: message))
    }
}
