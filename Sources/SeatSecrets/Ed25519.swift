#if canImport(CryptoKit)
import CryptoKit
#else
import CCrypto
#endif

/// Ed25519 signatures (RFC 8032): what signs a ticket, so a scanner holding only the show's public key
/// can tell a real one from a forgery, offline. OpenSSL's libcrypto on Linux, CryptoKit on Apple
/// platforms; checked against RFC 8032's vectors. A key is its 32-byte seed.
public struct Ed25519Key: Sendable {
    let seed: [UInt8]
    /// The 32-byte public key: what a scanner is given.
    public let publicKey: [UInt8]

    /// The key whose seed is `seed` (32 bytes; nil otherwise).
    public init?(seed: [UInt8]) {
        guard seed.count == 32 else { return nil }
        self.seed = seed
        #if canImport(CryptoKit)
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else { return nil }
        publicKey = Array(key.publicKey.rawRepresentation)
        #else
        var out = [UInt8](repeating: 0, count: 32)
        guard seatkit_ed25519_public_key(seed, &out) == 1 else { return nil }
        publicKey = out
        #endif
    }

    /// The 64-byte signature of `message` (Ed25519 is deterministic: the same message, the same signature).
    /// - Complexity: O(message); 93 µs for a ticket code here, the key made from its seed each call (`make bench`).
    public func sign(_ message: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        // CryptoKit's signatures are randomized; both verify the same way.
        let key = try! Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        return Array(try! key.signature(for: message))
        #else
        var out = [UInt8](repeating: 0, count: 64)
        // Fails only without an Ed25519 provider or memory: nothing a ticket could be trusted after.
        guard seatkit_ed25519_sign(seed, message, message.count, &out) == 1 else { fatalError("libcrypto could not sign with Ed25519") }
        return out
        #endif
    }

    /// Whether `signature` is `publicKey`'s signature of `message`. A key or signature of the wrong
    /// length is simply not valid.
    public static func verify(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, publicKey.count == 32 else { return false }
        #if canImport(CryptoKit)
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
        #else
        return seatkit_ed25519_verify(publicKey, message, message.count, signature) == 1
        #endif
    }
}
