/// A node of the persistent trie behind `SeatAvailability`: a leaf packs 2048 seats at 4 bits each
/// (1 KiB); a branch has up to 16 children. Changing one seat of a shared snapshot copies only the
/// nodes on its path (a 100k-seat show: one leaf and two small branches), never the whole show.
/// Fanout and leaf size trade the bytes copied against the references retained on each copy.
///
/// `@unchecked Sendable`: a node is mutated only while `isKnownUniquelyReferenced` proves that no other
/// snapshot (and so no other thread) can see it.
final class AvailabilityNode: @unchecked Sendable {
    static let leafBits = 11
    static let leafSeats = 1 << leafBits
    static let branchBits = 4
    static let fanout = 1 << branchBits

    var children: [AvailabilityNode]
    var nibbles: [UInt8]

    init(children: [AvailabilityNode]) { self.children = children; self.nibbles = [] }
    init(nibbles: [UInt8]) { self.children = []; self.nibbles = nibbles }

    var isLeaf: Bool { children.isEmpty }

    func copy() -> AvailabilityNode {
        isLeaf ? AvailabilityNode(nibbles: nibbles) : AvailabilityNode(children: children)
    }

    /// Builds a trie over packed nibbles (two seats a byte, low nibble first); returns root and depth.
    static func build(packed: [UInt8], seatCount: Int) -> (AvailabilityNode, depth: Int) {
        let leafBytes = leafSeats / 2
        var level: [AvailabilityNode] = []
        var offset = 0
        repeat {
            let end = min(offset + leafBytes, packed.count)
            var bytes = Array(packed[offset..<end])
            if bytes.count < leafBytes { bytes.append(contentsOf: repeatElement(0, count: leafBytes - bytes.count)) }
            level.append(AvailabilityNode(nibbles: bytes))
            offset = end
        } while offset < packed.count
        var depth = 0
        while level.count > 1 || depth == 0 {
            var next: [AvailabilityNode] = []
            next.reserveCapacity((level.count + fanout - 1) / fanout)
            var k = 0
            while k < level.count {
                next.append(AvailabilityNode(children: Array(level[k..<min(k + fanout, level.count)])))
                k += fanout
            }
            level = next
            depth += 1
        }
        return (level[0], depth)
    }

    /// Sets seat `index` to `value` below `node`, copying shared nodes on the way; returns the old value.
    static func set(_ node: inout AvailabilityNode, index: Int, shift: Int, value: UInt8) -> UInt8 {
        if !isKnownUniquelyReferenced(&node) { node = node.copy() }
        if node.isLeaf {
            let local = index & (leafSeats - 1)
            let byte = local >> 1, high = local & 1 == 1
            let old = node.nibbles[byte]
            let previous = high ? old >> 4 : old & 0x0F
            node.nibbles[byte] = high ? (old & 0x0F) | (value << 4) : (old & 0xF0) | value
            return previous
        }
        return set(&node.children[(index >> shift) & (fanout - 1)], index: index, shift: shift - branchBits, value: value)
    }

    /// Calls `body` with each leaf's packed bytes in seat order.
    func forEachLeaf(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if isLeaf { nibbles.withUnsafeBufferPointer(body); return }
        for child in children { child.forEachLeaf(body) }
    }

    var byteCount: Int {
        // Object header, two array references, and each array's header and storage.
        let own = 16 + 16 + 32 + nibbles.capacity + (isLeaf ? 0 : 32 + children.capacity * 8)
        return own + children.reduce(0) { $0 + $1.byteCount }
    }
}
