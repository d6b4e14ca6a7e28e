#if canImport(CryptoKit)
import CryptoKit
#else
import CCrypto
#endif

/// SHA-256 (FIPS 180-4), for operator keys, hold tokens and idempotency answers at rest: OpenSSL's
/// libcrypto on Linux (Debian's libssl-dev), CryptoKit on Apple platforms — a security primitive is
/// not written by hand. Checked against the FIPS test vectors.
public struct SHA256: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Adds `bytes` to what is digested. The inputs here are short (a token, a key, a scope), so they
    /// are kept and digested at once by `finalize`.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 { pending.append(contentsOf: bytes) }

    public mutating func update(_ text: String) { pending.append(contentsOf: text.utf8) }

    /// The 32-byte digest; the hasher starts over afterwards.
    public mutating func finalize() -> [UInt8] {
        defer { pending = [] }
        return pending.withUnsafeBytes { bytes in
            [UInt8](unsafeUninitializedCapacity: 32) { out, count in
                Self.digest(bytes, UnsafeRawBufferPointer(start: nil, count: 0), into: out.baseAddress!)
                count = 32
            }
        }
    }

    /// The digest of `head` followed by `tail` into `out` (32 bytes), without copying them together.
    /// - Complexity: O(head + tail); no allocation on Linux after a thread's first digest.
    static func digest(_ head: UnsafeRawBufferPointer, _ tail: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) {
        #if canImport(CryptoKit)
        var hasher = CryptoKit.SHA256()
        hasher.update(bufferPointer: head)
        hasher.update(bufferPointer: tail)
        hasher.finalize().withUnsafeBytes { out.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: 32) }
        #else
        // Fails only without a SHA-256 provider or memory: nothing a digest could be trusted after.
        guard seatkit_sha256(head.baseAddress, head.count, tail.baseAddress, tail.count, out) == 1 else {
            fatalError("libcrypto could not compute SHA-256 (no provider or out of memory)")
        }
        #endif
    }

    /// Lowercase hex of the first `bytes` bytes of the digest of `head` followed by `tail`, written
    /// after `prefix`: a hold token's digest, on the stack (every hold and release digests its token).
    static func hex(ofDigestOf head: UnsafeRawBufferPointer, _ tail: UnsafeRawBufferPointer, bytes: Int, after prefix: UnsafeRawBufferPointer) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
            Self.digest(head, tail, into: digest.baseAddress!)
            return String(unsafeUninitializedCapacity: prefix.count + 2 * bytes) { out in
                for k in 0..<prefix.count { out[k] = prefix[k] }
                let digits: StaticString = "0123456789abcdef"
                let d = digits.utf8Start
                for i in 0..<bytes {
                    out[prefix.count + 2 * i] = d[Int(digest[i] >> 4)]
                    out[prefix.count + 2 * i + 1] = d[Int(digest[i] & 0xF)]
                }
                return prefix.count + 2 * bytes
            }
        }
    }

    /// The digest of `text`'s UTF-8 bytes.
    public static func hash(_ text: String) -> [UInt8] {
        var h = SHA256()
        h.update(text)
        return h.finalize()
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
