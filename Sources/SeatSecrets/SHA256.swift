/// SHA-256 (FIPS 180-4), for hold tokens and idempotency answers at rest. Foundation on Linux has no
/// digest and the package takes no dependencies; the inputs are short (a token is one 64-byte block,
/// ~0.5 µs), so a plain implementation is enough. Checked against the FIPS test vectors.
public struct SHA256: Sendable {
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    static let initial: State = (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    private var state: State = SHA256.initial
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() { pending.reserveCapacity(64) }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var chunk = [UInt8]()
        chunk.reserveCapacity(64)
        for b in bytes {
            chunk.append(b)
            if chunk.count == 64 { update(contiguous: chunk); chunk.removeAll(keepingCapacity: true) }
        }
        update(contiguous: chunk)
    }

    public mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(contiguous: $0) }
    }

    /// Whole blocks straight from `bytes`; only a partial block is copied into `pending`.
    private mutating func update(contiguous bytes: UnsafeBufferPointer<UInt8>) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            offset = take
            if pending.count == 64 {
                let block = pending
                pending.removeAll(keepingCapacity: true)
                block.withUnsafeBufferPointer { compress($0.baseAddress!) }
            }
        }
        while bytes.count - offset >= 64 {
            compress(bytes.baseAddress! + offset)
            offset += 64
        }
        if offset < bytes.count { pending.append(contentsOf: bytes[offset...]) }
    }

    private mutating func update(contiguous bytes: [UInt8]) { bytes.withUnsafeBufferPointer { update(contiguous: $0) } }

    /// The 32-byte digest; the hasher is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        let bits = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { t in
            var k = 0
            while k < t.count { compress(t.baseAddress! + k); k += 64 }
        }
        var out = [UInt8](repeating: 0, count: 32)
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        for (i, word) in words.enumerated() {
            out[4 * i] = UInt8(word >> 24)
            out[4 * i + 1] = UInt8(truncatingIfNeeded: word >> 16)
            out[4 * i + 2] = UInt8(truncatingIfNeeded: word >> 8)
            out[4 * i + 3] = UInt8(truncatingIfNeeded: word)
        }
        return out
    }

    private mutating func compress(_ block: UnsafePointer<UInt8>) { Self.compress(&state, block) }

    /// One 64-byte block; the schedule lives on the stack (a tuple), not in an allocated array.
    static func compress(_ state: inout State, _ block: UnsafePointer<UInt8>) {
        var w:
            (
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &w) { raw in
            let ring = raw.bindMemory(to: UInt32.self)
            for t in 0..<16 {
                ring[t] = UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16 | UInt32(block[4 * t + 2]) << 8 | UInt32(block[4 * t + 3])
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.k.withUnsafeBufferPointer { k in
                for t in 0..<64 {
                    let wt: UInt32
                    if t < 16 {
                        wt = ring[t]
                    } else {
                        let w15 = ring[(t - 15) & 15], w2 = ring[(t - 2) & 15]
                        let s0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                        let s1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                        wt = ring[t & 15] &+ s0 &+ ring[(t - 7) & 15] &+ s1
                        ring[t & 15] = wt
                    }
                    let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ choice &+ k[t] &+ wt
                    let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
                }
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
        }
    }

    /// The digest of `head` followed by `tail` when they fit in two blocks (a domain and a token): padded
    /// on the stack, no allocation — the general `update`/`finalize` allocated four arrays a digest, and
    /// every hold and every release digests its token (2.3 % of the server's CPU under hold + release).
    /// Nil when longer than 119 bytes.
    static func shortDigest(_ head: UnsafeRawBufferPointer, _ tail: UnsafeRawBufferPointer) -> State? {
        let count = head.count + tail.count
        guard count <= 119 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer -> State in
            let blocks = count + 9 <= 64 ? 1 : 2, end = blocks * 64
            let base = buffer.baseAddress!
            base.initialize(repeating: 0, count: end)
            if let h = head.baseAddress { (base).update(from: h.assumingMemoryBound(to: UInt8.self), count: head.count) }
            if let t = tail.baseAddress { (base + head.count).update(from: t.assumingMemoryBound(to: UInt8.self), count: tail.count) }
            base[count] = 0x80
            let bits = UInt64(count) &* 8
            for k in 0..<8 { base[end - 1 - k] = UInt8(truncatingIfNeeded: bits >> UInt64(8 * k)) }
            var state = initial
            for b in 0..<blocks { compress(&state, base + 64 * b) }
            return state
        }
    }

    /// The first `bytes` bytes of a digest's state as lowercase hex, written after `prefix`.
    static func hex(_ state: State, bytes: Int, after prefix: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: prefix.count + 2 * bytes) { out in
            for k in 0..<prefix.count { out[k] = prefix[k] }
            withUnsafeBytes(of: state) { words in
                let digits: StaticString = "0123456789abcdef"
                let d = digits.utf8Start
                for i in 0..<bytes {
                    let word = words.load(fromByteOffset: (i / 4) * 4, as: UInt32.self)
                    let byte = UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * (i % 4)))
                    out[prefix.count + 2 * i] = d[Int(byte >> 4)]
                    out[prefix.count + 2 * i + 1] = d[Int(byte & 0xF)]
                }
            }
            return prefix.count + 2 * bytes
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

extension UInt32 {
    @inline(__always) fileprivate func rotatedRight(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
