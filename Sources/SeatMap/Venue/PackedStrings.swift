/// Many short strings in one byte buffer plus offsets: about 4 bytes of overhead a string instead of the
/// 16 of a `String`, and one allocation instead of one per long string.
struct PackedStrings: Sendable {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [UInt32] = [0]

    init() {}

    init(reservingCapacity count: Int, averageLength: Int = 12) {
        bytes.reserveCapacity(count * averageLength)
        offsets.reserveCapacity(count + 1)
    }

    var count: Int { offsets.count - 1 }

    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
        offsets.append(UInt32(bytes.count))
    }

    /// - Complexity: O(length of the string).
    subscript(i: Int) -> String {
        let start = Int(offsets[i]), end = Int(offsets[i + 1])
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    func equals(_ i: Int, _ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(offsets[i]), end = Int(offsets[i + 1])
        guard end - start == utf8.count else { return false }
        return bytes.withUnsafeBufferPointer { b in
            for k in 0..<utf8.count where b[start + k] != utf8[k] { return false }
            return true
        }
    }

    func withUTF8<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = Int(offsets[i]), end = Int(offsets[i + 1])
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    func hash(_ i: Int) -> UInt64 {
        let start = Int(offsets[i]), end = Int(offsets[i + 1])
        return bytes.withUnsafeBufferPointer { FNV1a.hash(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    var byteCount: Int { bytes.capacity + offsets.capacity * MemoryLayout<UInt32>.stride }
}

/// FNV-1a, 64 bits: deterministic across runs and platforms (Swift's `Hasher` is seeded per process), so
/// it serves for hash tables and for layout fingerprints alike. Not a security hash.
package enum FNV1a {
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    package static let prime: UInt64 = 0x0000_0100_0000_01b3

    package static func hash(_ bytes: UnsafeBufferPointer<UInt8>, into h: UInt64 = offsetBasis) -> UInt64 {
        var h = h
        for b in bytes { h = (h ^ UInt64(b)) &* prime }
        return h
    }

    package static func hash(_ s: String, into h: UInt64 = offsetBasis) -> UInt64 {
        var s = s
        return s.withUTF8 { hash($0, into: h) }
    }

    package static func hash(_ value: UInt64, into h: UInt64) -> UInt64 {
        var h = h
        var v = value
        for _ in 0..<8 { h = (h ^ (v & 0xFF)) &* prime; v >>= 8 }
        return h
    }
}

/// An open-addressing table of seat indices (linear probing, 1.5 slots a seat, 4 bytes a slot). Keys live
/// in the layout's own arrays; the table stores only indices, and the caller supplies hash and equality.
struct SeatHashTable: Sendable {
    private(set) var slots: [Int32]

    init(capacityFor count: Int) {
        slots = Array(repeating: -1, count: max(8, count + count / 2 + 1))
    }

    @inline(__always)
    private func home(_ hash: UInt64) -> Int {
        // Multiply-shift maps the hash onto the table without a power-of-two size or a division.
        let mixed = hash ^ (hash >> 29)
        return Int(mixed.multipliedFullWidth(by: UInt64(slots.count)).high)
    }

    /// Inserts `index` unless an equal key is present; returns the index already there in that case.
    mutating func insert(_ index: Int, hash: UInt64, isEqual: (Int) -> Bool) -> Int? {
        var slot = home(hash)
        while true {
            let existing = slots[slot]
            if existing < 0 { slots[slot] = Int32(index); return nil }
            if isEqual(Int(existing)) { return Int(existing) }
            slot += 1
            if slot == slots.count { slot = 0 }
        }
    }

    /// - Complexity: O(1) expected.
    func find(hash: UInt64, isEqual: (Int) -> Bool) -> Int? {
        var slot = home(hash)
        while true {
            let existing = slots[slot]
            if existing < 0 { return nil }
            if isEqual(Int(existing)) { return Int(existing) }
            slot += 1
            if slot == slots.count { slot = 0 }
        }
    }

    var byteCount: Int { slots.capacity * MemoryLayout<Int32>.stride }
}
