/// The status of every seat for one show, with a version number. A value: copies are O(1) and share
/// storage; changing a seat copies only the few trie nodes on that seat's path, so a snapshot handed to
/// a renderer or another thread never changes under it.
///
/// Storage is half a byte a seat plus about 2% of trie overhead.
public struct SeatAvailability: Sendable {
    private var root: AvailabilityNode
    private let depth: Int
    public let seatCount: Int
    /// Bumped by the store on every committed change; deltas go from one version to the next.
    public internal(set) var version: UInt64
    /// The fingerprint of the layout this availability belongs to (0 when unknown).
    public let layoutFingerprint: UInt64
    public private(set) var counts: StatusCounts

    /// Every seat available, version 0.
    public init(layout: VenueLayout, version: UInt64 = 0) {
        self.init(seatCount: layout.seatCount, layoutFingerprint: layout.fingerprint, version: version)
    }

    public init(seatCount: Int, layoutFingerprint: UInt64 = 0, version: UInt64 = 0) {
        precondition(seatCount >= 0, "seat count must not be negative")
        self.init(
            packed: [UInt8](repeating: 0, count: (seatCount + 1) / 2), seatCount: seatCount,
            layoutFingerprint: layoutFingerprint, version: version)
        counts.available = seatCount
    }

    /// From nibbles packed two a byte (low nibble first), with counts given by the caller.
    init(packed: [UInt8], seatCount: Int, layoutFingerprint: UInt64, version: UInt64, counts: StatusCounts = StatusCounts()) {
        let (root, depth) = AvailabilityNode.build(packed: packed, seatCount: seatCount)
        self.root = root
        self.depth = depth
        self.seatCount = seatCount
        self.layoutFingerprint = layoutFingerprint
        self.version = version
        self.counts = counts
    }

    private var topShift: Int { AvailabilityNode.leafBits + AvailabilityNode.branchBits * (depth - 1) }

    /// - Complexity: O(log₁₆ n): three steps for 100k seats, six for 100M.
    public subscript(seat: SeatIndex) -> SeatStatus {
        precondition(seat >= 0 && seat < seatCount, "seat index \(seat) out of range 0..<\(seatCount)")
        var node = root
        var shift = topShift
        while !node.isLeaf {
            node = node.children[(seat >> shift) & (AvailabilityNode.fanout - 1)]
            shift -= AvailabilityNode.branchBits
        }
        let local = seat & (AvailabilityNode.leafSeats - 1)
        let byte = node.nibbles[local >> 1]
        return SeatStatus(rawValue: local & 1 == 1 ? byte >> 4 : byte & 0x0F) ?? .blocked
    }

    /// Changes one seat without touching the version (a store sets the version once per commit).
    /// - Complexity: O(1) for any real venue: one 1 KiB leaf and a few 16-pointer branches are copied,
    ///   and only when another snapshot shares them.
    @discardableResult
    public mutating func setStatus(_ status: SeatStatus, for seat: SeatIndex) -> SeatStatus {
        precondition(seat >= 0 && seat < seatCount, "seat index \(seat) out of range 0..<\(seatCount)")
        let old = AvailabilityNode.set(&root, index: seat, shift: topShift, value: status.rawValue)
        let previous = SeatStatus(rawValue: old) ?? .blocked
        if previous != status {
            counts[previous] -= 1
            counts[status] += 1
        }
        return previous
    }

    /// A copy with one seat changed; `self` is untouched.
    public func settingStatus(_ status: SeatStatus, for seat: SeatIndex) -> SeatAvailability {
        var copy = self
        copy.setStatus(status, for: seat)
        return copy
    }

    /// The leaf holding `seat`, and the index of its first seat.
    func leaf(containing seat: SeatIndex) -> (bytes: [UInt8], start: Int) {
        var node = root
        var shift = topShift
        while !node.isLeaf {
            node = node.children[(seat >> shift) & (AvailabilityNode.fanout - 1)]
            shift -= AvailabilityNode.branchBits
        }
        return (node.nibbles, seat & ~(AvailabilityNode.leafSeats - 1))
    }

    /// A reader for scans: it keeps the current leaf, so walking seats in order touches the trie once
    /// per 2048 seats instead of once per seat.
    public func reader() -> StatusReader { StatusReader(availability: self) }

    /// Bytes of trie storage, for the memory benchmark.
    public var storageByteCount: Int { root.byteCount }

    /// Every status in seat order.
    /// - Complexity: O(n).
    public func forEachStatus(_ body: (SeatIndex, SeatStatus) -> Void) {
        var i = 0
        let n = seatCount
        root.forEachLeaf { leaf in
            for byte in leaf {
                if i >= n { return }
                body(i, SeatStatus(rawValue: byte & 0x0F) ?? .blocked); i += 1
                if i >= n { return }
                body(i, SeatStatus(rawValue: byte >> 4) ?? .blocked); i += 1
            }
        }
    }

    public var statuses: [SeatStatus] {
        var out: [SeatStatus] = []
        out.reserveCapacity(seatCount)
        forEachStatus { _, s in out.append(s) }
        return out
    }
}

extension SeatAvailability: Equatable {
    /// Same seats, same version, same statuses.
    public static func == (a: SeatAvailability, b: SeatAvailability) -> Bool {
        guard a.seatCount == b.seatCount, a.version == b.version, a.counts == b.counts,
            a.layoutFingerprint == b.layoutFingerprint
        else { return false }
        if a.root === b.root { return true }
        return a.statuses == b.statuses
    }
}

/// Reads statuses of one availability snapshot, fastest in seat order.
public struct StatusReader: Sendable {
    let availability: SeatAvailability
    var bytes: [UInt8] = []
    var start = Int.min / 2

    init(availability: SeatAvailability) { self.availability = availability }

    /// - Complexity: O(1) while consecutive reads stay in one leaf.
    @inline(__always)
    public mutating func callAsFunction(_ seat: SeatIndex) -> SeatStatus {
        var local = seat &- start
        if local < 0 || local >= AvailabilityNode.leafSeats {
            precondition(seat >= 0 && seat < availability.seatCount, "seat index \(seat) out of range")
            (bytes, start) = availability.leaf(containing: seat)
            local = seat - start
        }
        let byte = bytes[local >> 1]
        return SeatStatus(rawValue: local & 1 == 1 ? byte >> 4 : byte & 0x0F) ?? .blocked
    }
}
