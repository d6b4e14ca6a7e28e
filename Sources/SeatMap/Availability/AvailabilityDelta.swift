/// One seat's new status.
public struct SeatChange: Sendable, Hashable {
    public var seat: SeatIndex
    public var status: SeatStatus
    public init(seat: SeatIndex, status: SeatStatus) { self.seat = seat; self.status = status }
}

/// The changes that take an availability from one version to a later one.
public struct AvailabilityDelta: Sendable, Hashable {
    public var fromVersion: UInt64
    public var toVersion: UInt64
    public var changes: [SeatChange]

    public init(fromVersion: UInt64, toVersion: UInt64, changes: [SeatChange]) {
        self.fromVersion = fromVersion; self.toVersion = toVersion; self.changes = changes
    }
}

/// Why an encoding or a delta could not be used. Nothing was changed.
public enum AvailabilityError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(offset: Int, reason: String)
    case wrongLayout(expected: String, found: String)
    case wrongSeatCount(expected: Int, found: Int)
    case versionMismatch(current: UInt64, deltaFrom: UInt64)
    case seatOutOfRange(SeatIndex, count: Int)

    public var description: String {
        switch self {
        case .malformed(let offset, let reason): return "availability encoding, byte \(offset): \(reason)"
        case .wrongLayout(let e, let f): return "availability is for layout \(f), not \(e)"
        case .wrongSeatCount(let e, let f): return "availability has \(f) seats, the layout \(e)"
        case .versionMismatch(let c, let d): return "delta starts at version \(d), the availability is at \(c)"
        case .seatOutOfRange(let s, let n): return "seat index \(s) is outside 0..<\(n)"
        }
    }
}

extension SeatAvailability {
    /// Applies `delta` atomically: every change is checked before any is made.
    /// - Complexity: O(k) for k changes, whatever the venue size.
    public mutating func apply(_ delta: AvailabilityDelta) throws(AvailabilityError) {
        guard delta.fromVersion == version, delta.toVersion > delta.fromVersion else {
            throw .versionMismatch(current: version, deltaFrom: delta.fromVersion)
        }
        for change in delta.changes where change.seat < 0 || change.seat >= seatCount {
            throw .seatOutOfRange(change.seat, count: seatCount)
        }
        for change in delta.changes { setStatus(change.status, for: change.seat) }
        version = delta.toVersion
    }

    /// Sets the version after a batch of `setStatus` calls (what a store does when it commits).
    public mutating func commit(version newVersion: UInt64) {
        precondition(newVersion >= version, "versions only go forward")
        version = newVersion
    }

    /// The changes from `old` to `self` (same layout), as a delta.
    /// - Complexity: O(n).
    public func delta(since old: SeatAvailability) -> AvailabilityDelta {
        precondition(old.seatCount == seatCount, "different venues")
        var changes: [SeatChange] = []
        let before = old.statuses
        forEachStatus { i, s in if before[i] != s { changes.append(SeatChange(seat: i, status: s)) } }
        return AvailabilityDelta(fromVersion: old.version, toVersion: version, changes: changes)
    }
}
