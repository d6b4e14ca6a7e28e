/// A scan at the door: a ticket going in or out through a gate, by a door operator, once per nonce
/// (a scanner's retry of the same scan sends the same nonce).
public struct CheckInScan: Sendable, Hashable {
    public enum Direction: String, Sendable, CaseIterable { case `in`, out }

    public var showID: String
    /// The ticket's id (16 hex digits).
    public var ticketID: String
    public var seat: Int
    public var direction: Direction
    public var gate: String
    public var operatorName: String
    public var nonce: String
    /// Unix milliseconds.
    public var at: Int64

    public init(showID: String, ticketID: String, seat: Int, direction: Direction, gate: String, operatorName: String, nonce: String, at: Int64) {
        self.showID = showID; self.ticketID = ticketID; self.seat = seat; self.direction = direction; self.gate = gate
        self.operatorName = operatorName; self.nonce = nonce; self.at = at
    }
}

/// What the store made of a scan. Whether the ticket is real and still stands is decided before; the
/// store decides, atomically across every instance and gate, whether it is inside.
public enum CheckInOutcome: Sendable, Hashable {
    /// Recorded; `replay` when this nonce was recorded before (the scan is the earlier one, counted once).
    case recorded(CheckInScan, replay: Bool)
    /// Going in while inside: the scan that let it in.
    case alreadyIn(CheckInScan)
    /// Going out while not inside (never in, or out already): the last scan, if any.
    case notInside(CheckInScan?)
}

/// A show's scans counted: per gate, in and out; how many tickets are inside now.
public struct CheckInCounts: Sendable, Hashable {
    public var gates: [(gate: String, entered: Int, left: Int)]
    public var inside: Int
    /// Tickets that went in at least once: how many came.
    public var came: Int

    public init(gates: [(gate: String, entered: Int, left: Int)], inside: Int, came: Int) {
        self.gates = gates; self.inside = inside; self.came = came
    }

    public static func == (a: CheckInCounts, b: CheckInCounts) -> Bool {
        a.inside == b.inside && a.came == b.came
            && a.gates.map { "\($0.gate)\u{1F}\($0.entered)\u{1F}\($0.left)" } == b.gates.map { "\($0.gate)\u{1F}\($0.entered)\u{1F}\($0.left)" }
    }

    public func hash(into h: inout Hasher) { h.combine(inside); h.combine(came); for g in gates { h.combine(g.gate); h.combine(g.entered); h.combine(g.left) } }
}

/// Where scans are kept: a ticket's presence (one row a ticket, changed only from out to in and in to
/// out) and every recorded scan. Both stores keep them; each scan is one durable transaction.
public protocol DoorStore: AnyObject, Sendable {
    /// The scan decided and, when it passes, recorded, in one transaction.
    func checkIn(_ scan: CheckInScan) throws -> CheckInOutcome
    /// The show's recorded scans counted by gate (gates in name order), and the tickets inside.
    func checkInCounts(show: String) throws -> CheckInCounts
    /// The show's last `limit` recorded scans, newest first: who let whom in or out, where and when.
    func recentScans(show: String, limit: Int) throws -> [CheckInScan]
    /// Who sold a seat of the show: the sale (confirmed hold) that has it sold now, and the sales it
    /// was refunded from, oldest first: what tells a standing ticket from a revoked one. A real-name
    /// sale's seat comes with its attendee as its claim keeps it (`Claim.identity`, `Claim.attendee`).
    func seatSales(show: String, seat: Int) throws -> SeatSales
}

/// Who has a seat of a show sold now, the sales it was refunded from, and its attendee.
public struct SeatSales: Sendable, Hashable {
    public var current: String?
    public var refunded: [String]
    /// The seat's attendee's keyed hash and sealed self (a real-name sale's), nil without one.
    public var identity: String?
    public var attendee: String?
    /// How many times the current sale's ticket of the seat changed hands (or was first bound): its
    /// ticket's generation (`TicketCode.id(sale:seat:generation:)`).
    public var generation: Int
    public init(current: String?, refunded: [String], identity: String? = nil, attendee: String? = nil, generation: Int = 0) {
        self.current = current; self.refunded = refunded; self.identity = identity; self.attendee = attendee; self.generation = generation
    }
}
