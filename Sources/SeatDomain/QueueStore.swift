/// A show's waiting room as the store keeps it: the manager's settings and the room's shared state
/// (the opening, the admission rate's credit). What each buyer holds is a `QueueEntryRecord`.
public struct QueueRecord: Sendable, Hashable {
    public var showID: String
    /// Unix milliseconds the room was set up: a room set up again after it was switched off is a new
    /// one (its seed is derived from this, so a new room shuffles differently).
    public var createdAt: Int64
    public var opensAt: Int64
    public var admitPerMinute: Int
    public var earlyMinutes: Int
    public var admissionMinutes: Int
    public var maxEntriesPerAddress: Int
    /// Places one network (an IPv4 /24, an IPv6 /64) may hold at once, and arrivals the line takes a second.
    public var maxEntriesPerNetwork: Int
    public var maxJoinsPerSecond: Int
    /// When the early arrivals were shuffled (nil: not yet); `earlyCount` of them took places 0..<earlyCount.
    public var openedAt: Int64?
    public var earlyCount: Int
    /// The admission rate's unspent credit (buyers) and when it was last counted (Unix ms).
    public var credit: Double
    public var lastAdvance: Int64?
    public var soldOut: Bool
    /// When a manager switched the room off (everyone waiting let in); nil while it is on.
    public var offAt: Int64?
    /// Leading zero bits a joining buyer's proof of work must reach (0: no challenge).
    public var proofOfWorkBits: Int
    /// A registration and draw: the early arrivals are drawn at `drawAt` (not shuffled at opening),
    /// the first `drawWinners` given purchase slots from `opensAt`, the others not drawn.
    public var drawAt: Int64?
    public var drawWinners: Int
    /// Priority lanes, `name:share` comma-separated (nil: one public line).
    public var lanes: String?

    public init(
        showID: String, createdAt: Int64, opensAt: Int64, admitPerMinute: Int, earlyMinutes: Int, admissionMinutes: Int, maxEntriesPerAddress: Int,
        maxEntriesPerNetwork: Int = 64, maxJoinsPerSecond: Int = 1_000, openedAt: Int64? = nil, earlyCount: Int = 0, credit: Double = 0,
        lastAdvance: Int64? = nil, soldOut: Bool = false, offAt: Int64? = nil, proofOfWorkBits: Int = 0, drawAt: Int64? = nil, drawWinners: Int = 0,
        lanes: String? = nil
    ) {
        self.proofOfWorkBits = proofOfWorkBits; self.drawAt = drawAt; self.drawWinners = drawWinners; self.lanes = lanes
        self.maxEntriesPerNetwork = maxEntriesPerNetwork; self.maxJoinsPerSecond = maxJoinsPerSecond
        self.showID = showID; self.createdAt = createdAt; self.opensAt = opensAt; self.admitPerMinute = admitPerMinute
        self.earlyMinutes = earlyMinutes; self.admissionMinutes = admissionMinutes; self.maxEntriesPerAddress = maxEntriesPerAddress
        self.openedAt = openedAt; self.earlyCount = earlyCount; self.credit = credit; self.lastAdvance = lastAdvance
        self.soldOut = soldOut; self.offAt = offAt
    }
}

/// One buyer's place in a waiting room. `key` is the digest of the buyer's entry id (the id itself is a
/// capability — it polls the place and receives the admission — so a copy of the database does not
/// carry it); `address` is the digest of the buyer's address (counted against the per-address limit).
public struct QueueEntryRecord: Sendable, Hashable {
    public var key: String
    public var address: String
    /// The room's revision the buyer joined at: arrival order.
    public var seq: Int64
    public var arrivedAt: Int64
    /// `early`, `waiting`, `admitted`, `soldOut`, `left` or `notDrawn`.
    public var state: String
    /// The place in the line (0 first), once in it: the shuffled early arrivals, then arrivals as they come.
    public var place: Int?
    public var admittedUntil: Int64?
    public var used: Bool
    /// The last time the buyer's page asked, as far as the store knows (instances write it back every few seconds).
    public var lastSeen: Int64
    /// The keyed hash of the identity document the buyer joined with (a real-name show: one place a document).
    public var identity: String?
    /// The digest of the proof-of-work challenge the join spent (each challenge joins once).
    public var proof: String?
    /// The priority lane the entry waits in (nil: the public one), and the digest of the lane pass it spent.
    public var lane: String?
    public var pass: String?

    public init(
        key: String, address: String, seq: Int64, arrivedAt: Int64, state: String, place: Int? = nil, admittedUntil: Int64? = nil,
        used: Bool = false, lastSeen: Int64, identity: String? = nil, proof: String? = nil,
        lane: String? = nil, pass: String? = nil
    ) {
        self.lane = lane; self.pass = pass
        self.key = key; self.address = address; self.seq = seq; self.arrivedAt = arrivedAt; self.state = state; self.place = place
        self.admittedUntil = admittedUntil; self.used = used; self.lastSeen = lastSeen; self.identity = identity; self.proof = proof
    }
}

/// What a room's store holds after a revision: the room's row (nil: no room) and the entries written after it.
public struct QueueChanges: Sendable {
    public var room: QueueRecord?
    public var entries: [QueueEntryRecord]
    /// The room's revision these changes bring a reader to.
    public var revision: Int64
    public init(room: QueueRecord?, entries: [QueueEntryRecord], revision: Int64) {
        self.room = room; self.entries = entries; self.revision = revision
    }
}

/// What one decision writes: the room's row (nil: unchanged) and the entries it changed or added
/// (a new entry's `seq` is the revision written, filled in by the store).
public struct QueueWrite: Sendable {
    public var room: QueueRecord?
    public var entries: [QueueEntryRecord]
    /// Drops the room's entries before writing (a room set up again after it was switched off starts empty).
    public var resetEntries: Bool
    public init(room: QueueRecord? = nil, entries: [QueueEntryRecord] = [], resetEntries: Bool = false) {
        self.room = room; self.entries = entries; self.resetEntries = resetEntries
    }
    public var isEmpty: Bool { room == nil && entries.isEmpty && !resetEntries }
}

/// Where waiting rooms are kept, so a restarted instance loses no place and several instances share
/// one line. Every decision about a room (a join, the opening shuffle, an admission, a place given up)
/// is taken under the room's lock with everything written before it in view (`updateQueue`), so
/// instances deciding at once take turns and each sees the other's last word; revisions are given
/// under that lock, so a reader that has seen revision n has seen every revision before it.
public protocol QueueStore: AnyObject, Sendable {
    /// Every show's room (a starting instance's).
    func rooms() throws -> [QueueRecord]
    /// The room's row and the entries written after `revision` (0: all), without taking the room's lock.
    func queueChanges(show: String, after revision: Int64) throws -> QueueChanges
    /// Under the room's lock: the changes after `revision`, then `decide`'s write under the next
    /// revision, committed; the revision written (the one read when `decide` writes nothing). Nothing
    /// is written when `decide` throws.
    func updateQueue(show: String, after revision: Int64, _ decide: (QueueChanges, Int64) throws -> QueueWrite) throws -> Int64
}
