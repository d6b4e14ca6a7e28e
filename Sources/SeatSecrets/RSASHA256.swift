#if canImport(CCrypto)
import CCrypto
#endif

/// RSA signatures with SHA-256 (PKCS#1 v1.5, "SHA256withRSA"): how WeChat Pay API v3 and Alipay (RSA2)
/// sign requests, answers and notifications. Keys are PEM text, as the providers hand them out; a bare
/// base64 key (Alipay's key tool writes them so) is read as PKCS#8 / SubjectPublicKeyInfo. OpenSSL's
/// libcrypto, so Linux only: the payment server runs there; on Apple platforms every call throws
/// `unavailable` (an app never holds a merchant's key).
public enum RSASHA256 {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text is not an RSA key of the kind needed.
        case notAKey(String)
        case unavailable
        public var description: String {
            switch self {
            case .notAKey(let what): "not an RSA \(what) (PEM, or the bare base64 the provider's key tool writes)"
            case .unavailable: "RSA needs OpenSSL's libcrypto, which this platform does not link"
            }
        }
    }

    /// The PEM for `text`: as given when it has a header; wrapped as `kind` when it is bare base64.
    static func pem(_ text: String, kind: String) -> String {
        if text.contains("-----BEGIN") { return text }
        let body = text.filter { !$0.isWhitespace }
        var lines: [Substring] = []
        var rest = Substring(body)
        while !rest.isEmpty {
            lines.append(rest.prefix(64))
            rest = rest.dropFirst(64)
        }
        return "-----BEGIN \(kind)-----\n" + lines.joined(separator: "\n") + "\n-----END \(kind)-----\n"
    }

    /// The key's size in bits; throws when `text` is no RSA key of the kind (`privateKey`: a private
    /// key; otherwise a public key or a certificate). What a settings file is checked with at start.
    public static func keyBits(_ text: String, privateKey: Bool) throws(Failure) -> Int {
        #if canImport(CCrypto)
        let pem = pem(text, kind: privateKey ? "PRIVATE KEY" : "PUBLIC KEY")
        let bits = pem.withCString { seatkit_rsa_key_check($0, pem.utf8.count, privateKey ? 1 : 0) }
        guard bits > 0 else { throw .notAKey(privateKey ? "private key" : "public key or certificate") }
        return Int(bits)
        #else
        throw .unavailable
        #endif
    }

    /// The signature of `message` under the private key `privateKeyPEM`.
    /// - Complexity: one RSA private-key operation (about 1 ms for 2048 bits).
    public static func sign(_ message: [UInt8], privateKeyPEM: String) throws(Failure) -> [UInt8] {
        #if canImport(CCrypto)
        let pem = pem(privateKeyPEM, kind: "PRIVATE KEY")
        var count = 1024
        var out = [UInt8](repeating: 0, count: count)
        let ok = pem.withCString { p in
            message.withUnsafeBytes { m in seatkit_rsa_sha256_sign(p, pem.utf8.count, m.baseAddress, m.count, &out, &count) }
        }
        guard ok == 1 else { throw .notAKey("private key") }
        return Array(out.prefix(count))
        #else
        throw .unavailable
        #endif
    }

    /// Whether `signature` signs `message` under the public key (or certificate) `publicKeyPEM`. A key
    /// that cannot be read verifies nothing.
    public static func verify(_ signature: [UInt8], of message: [UInt8], publicKeyPEM: String) -> Bool {
        #if canImport(CCrypto)
        let pem = pem(publicKeyPEM, kind: "PUBLIC KEY")
        return pem.withCString { p in
            message.withUnsafeBytes { m in
                signature.withUnsafeBytes { s in seatkit_rsa_sha256_verify(p, pem.utf8.count, m.baseAddress, m.count, s.baseAddress, s.count) == 1 }
            }
        }
        #else
        return false
        #endif
    }

    /// A PEM certificate's serial number in upper-case hex (how WeChat Pay names its platform
    /// certificate in `Wechatpay-Serial`); nil for anything else.
    public static func certificateSerial(_ pem: String) -> String? {
        #if canImport(CCrypto)
        var out = [CChar](repeating: 0, count: 128)
        guard pem.withCString({ seatkit_x509_serial($0, pem.utf8.count, &out, out.count) }) == 1 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return nil
        #endif
    }
}

/// AES-256-GCM with a 16-byte tag: how WeChat Pay API v3 encrypts a notification's `resource` under the
/// merchant's 32-byte API v3 key (`AEAD_AES_256_GCM`). Linux's libcrypto, as `RSASHA256`.
public enum AES256GCM {
    /// `plain` sealed: the ciphertext followed by the tag.
    public static func seal(_ plain: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
        #if canImport(CCrypto)
        guard key.count == 32, !nonce.isEmpty else { return nil }
        var out = [UInt8](repeating: 0, count: plain.count + 1)
        var tag = [UInt8](repeating: 0, count: 16)
        let ok = seatkit_aes256gcm(1, key, nonce, nonce.count, associatedData, associatedData.count, plain, plain.count, &out, &tag)
        return ok == 1 ? Array(out.prefix(plain.count)) + tag : nil
        #else
        return nil
        #endif
    }

    /// `nonce`, then `plain` sealed, then the tag, in one array (how personal data is kept): no
    /// intermediate arrays (three of them were a third of sealing an attendee).
    public static func sealWithNonce(_ plain: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
        #if canImport(CCrypto)
        guard key.count == 32, !nonce.isEmpty else { return nil }
        var ok: Int32 = 0
        let total = nonce.count + plain.count + 16
        let out = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            let base = buffer.baseAddress!
            for (k, b) in nonce.enumerated() { base[k] = b }
            ok = seatkit_aes256gcm(
                1, key, nonce, nonce.count, associatedData, associatedData.count, plain, plain.count, base + nonce.count,
                base + nonce.count + plain.count)
            count = total
        }
        return ok == 1 ? out : nil
        #else
        return nil
        #endif
    }

    /// The plain text of `sealed` (ciphertext then tag); nil when the key, nonce or associated data is
    /// not the one it was sealed with, or it was changed.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
        #if canImport(CCrypto)
        guard key.count == 32, !nonce.isEmpty, sealed.count >= 16 else { return nil }
        let cipher = Array(sealed.dropLast(16))
        var tag = Array(sealed.suffix(16))
        var out = [UInt8](repeating: 0, count: cipher.count + 1)
        let ok = seatkit_aes256gcm(0, key, nonce, nonce.count, associatedData, associatedData.count, cipher, cipher.count, &out, &tag)
        return ok == 1 ? Array(out.prefix(cipher.count)) : nil
        #else
        return nil
        #endif
    }
}
