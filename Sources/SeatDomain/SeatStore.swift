import Foundation
import SeatMap
import SeatSecrets

/// A show as stored: which venue, when, and what it sells under.
public struct ShowRecord: Sendable, Hashable {
    public var id: String
    public var venueID: String
    public var startsAt: String
    public var pricesJSON: String
    public var policyJSON: String
    public var holdSeconds: Int
    public var version: UInt64
    /// What buyers are shown about the show (title, film, format, language, poster…): a JSON object.
    public var detailsJSON: String
    /// Whether new holds and sales are taken (the manager's switch; the start time closes sales too).
    public var onSale: Bool
    /// When the show was cancelled (Unix milliseconds; nil: it was not).
    public var cancelledAt: Int64?
    /// How many times the prices changed: holds name the revision they were priced at.
    public var priceRevision: Int
    /// The price tables before the current one, oldest first (a JSON array; revision k is element k).
    public var earlierPricesJSON: String

    public init(
        id: String, venueID: String, startsAt: String, pricesJSON: String, policyJSON: String, holdSeconds: Int, version: UInt64,
        detailsJSON: String = "{}", onSale: Bool = true, cancelledAt: Int64? = nil, priceRevision: Int = 0, earlierPricesJSON: String = "[]"
    ) {
        self.id = id; self.venueID = venueID; self.startsAt = startsAt; self.pricesJSON = pricesJSON
        self.policyJSON = policyJSON; self.holdSeconds = holdSeconds; self.version = version
        self.detailsJSON = detailsJSON; self.onSale = onSale; self.cancelledAt = cancelledAt
        self.priceRevision = priceRevision; self.earlierPricesJSON = earlierPricesJSON
    }
}

public enum HoldState: String, Sendable {
    case active, released, expired, confirmed
}

/// Whose a hold is: a buyer's (held seats, a token, an expiry), or the box office's reservation of
/// seats not for sale (`blocked`: a broken seat, a camera position; `house`: kept for guests, released
/// at its time). Reserved seats are `blocked` to buyers, whichever the kind.
public enum HoldKind: String, Sendable, CaseIterable {
    case buyer, blocked, house
    /// A sale at the counter: confirmed as it is made, its seats sold at once.
    case counter

    /// Whose seats these are to a buyer: a reservation's are not for sale.
    public var isReservation: Bool { self == .blocked || self == .house }
}

/// A hold as stored. Its seats are the claims that name it.
public struct HoldRecord: Sendable, Hashable {
    public var id: String
    /// What the store keeps of the hold's token (`Secrets.tokenDigest`): the token itself is never stored.
    public var tokenDigest: String
    public var showID: String
    public var state: HoldState
    /// Unix milliseconds.
    public var expiresAt: Int64
    public var extended: Bool
    public var orderRef: String?
    public var wheelchair: Bool
    public var createdAt: Int64
    public var kind: HoldKind
    /// Why the box office reserved the seats (reservations only; never shown to buyers).
    public var reason: String?
    /// The operator who made it (reservations and counter sales).
    public var operatorName: String?
    /// How a sale was paid (`cash`, `card`, `comp`…; counter sales and sold reservations).
    public var payment: String?
    /// What its seats cost, as the inventory wrote it (`HoldPricing`: the price revision, and seats
    /// priced otherwise); nil for holds stored before prices could change (revision 0).
    public var prices: String?
    /// The waiting room's entry whose admission made the hold (while the show's room was on): an
    /// admission has one active hold at a time, which both stores enforce (a unique index on active holds).
    public var admission: String?

    public init(
        id: String, tokenDigest: String, showID: String, state: HoldState, expiresAt: Int64, extended: Bool, orderRef: String?,
        wheelchair: Bool, createdAt: Int64, kind: HoldKind = .buyer, reason: String? = nil, operatorName: String? = nil,
        payment: String? = nil, prices: String? = nil, admission: String? = nil
    ) {
        self.id = id; self.tokenDigest = tokenDigest; self.showID = showID; self.state = state; self.expiresAt = expiresAt
        self.extended = extended; self.orderRef = orderRef; self.wheelchair = wheelchair; self.createdAt = createdAt
        self.kind = kind; self.reason = reason; self.operatorName = operatorName; self.payment = payment; self.prices = prices
        self.admission = admission
    }
}

/// A seat taken by a hold, a sale or a block.
public struct Claim: Sendable, Hashable {
    public var seat: Int
    public var status: SeatStatus
    public var holdID: String?
    /// A real-name sale's attendee of the seat: the keyed hash of their identity document (one a show:
    /// the store's unique index says so across instances), nil for a seat sold without a name.
    public var identity: String?
    /// The attendee sealed (`PersonalDataKeys`): name, document, phone; never in the clear.
    public var attendee: String?
    public init(seat: Int, status: SeatStatus, holdID: String?, identity: String? = nil, attendee: String? = nil) {
        self.seat = seat; self.status = status; self.holdID = holdID; self.identity = identity; self.attendee = attendee
    }
}

/// Everything one committed change writes, in one transaction: the guarantee that a seat is in at most
/// one live hold or sale is the store's (a primary key on show and seat), not only memory's.
public struct StoreCommit: Sendable {
    public var showID: String
    public var version: UInt64
    /// The seats' new statuses (what subscribers are told).
    public var changes: [SeatChange]
    /// New claims (a seat already claimed fails the whole commit).
    public var insert: [Claim]
    /// Claims removed (released or expired seats).
    public var delete: [Int]
    /// Held seats becoming sold.
    public var sell: [Int]
    public var holds: [HoldRecord]
    /// The event for this version (the compact delta).
    public var delta: String
    /// A confirmation: must survive power loss.
    public var durable: Bool
    public var idempotency: StoredResponse?
    /// Sold seats given back, one a seat: the sale's claim is removed (the seat is for sale again) and
    /// the refund kept; a seat refunded twice, or no longer sold in that sale, fails the change.
    public var refunds: [RefundRecord]
    /// The show's own fields rewritten (prices, times, details, on-sale, cancelled; not its version).
    public var show: ShowRecord?
    /// The show's fields as the change found them: a shared store writes `show` only over these.
    public var showBase: ShowRecord?
    /// Who made the change and why: the show's log (kept with the show; the event log is pruned).
    public var log: LogEntry
    /// This change is written only with the next one of its batch, all or none (an exchange between two
    /// shows: one change frees the old seats, the next sells the new; never one without the other).
    public var allOrNoneWithNext = false
    /// Payments written with this change, in its transaction (upserted by id): a checkout's pending
    /// payment, or the paid one that sells the seats. A change refused writes none of them.
    public var payments: [PaymentRecord] = []
    /// Refunds through providers written with this change (the seats' refund makes them `pending`).
    public var paymentRefunds: [PaymentRefundRecord] = []

    public init(
        showID: String, version: UInt64, changes: [SeatChange], insert: [Claim], delete: [Int], sell: [Int], holds: [HoldRecord],
        delta: String, durable: Bool, idempotency: StoredResponse?, refunds: [RefundRecord] = [], show: ShowRecord? = nil,
        log: LogEntry = LogEntry(action: "change"), showBase: ShowRecord? = nil
    ) {
        self.showID = showID; self.version = version; self.changes = changes; self.insert = insert; self.delete = delete
        self.sell = sell; self.holds = holds; self.delta = delta; self.durable = durable; self.idempotency = idempotency
        self.refunds = refunds; self.show = show; self.log = log; self.showBase = showBase
    }
}

/// One line of a show's log: what a change did, by whom (an operator, or the hold that made it), why
/// and under which order. The seats and their new statuses are the change's event.
public struct LogEntry: Sendable, Hashable {
    /// `hold`, `modify`, `release`, `expire`, `extend`, `confirm`, `block`, `house`, `sell`, `refund`, `prices`, `edit`, `cancel`, `repair`…
    public var action: String
    public var holdID: String?
    public var operatorName: String?
    public var reason: String?
    public var orderRef: String?
    public init(action: String, holdID: String? = nil, operatorName: String? = nil, reason: String? = nil, orderRef: String? = nil) {
        self.action = action; self.holdID = holdID; self.operatorName = operatorName; self.reason = reason; self.orderRef = orderRef
    }
}

/// A stored line of the log: the entry, its version, when, and the change's event (the seats it set).
public struct LogRecord: Sendable, Hashable {
    public var version: UInt64
    /// Unix milliseconds.
    public var at: Int64
    public var entry: LogEntry
    public var delta: String
    public init(version: UInt64, at: Int64, entry: LogEntry, delta: String) {
        self.version = version; self.at = at; self.entry = entry; self.delta = delta
    }
}

/// One seat of a sale given back: which sale (the confirmed hold), when, why and by whom.
public struct RefundRecord: Sendable, Hashable {
    public var holdID: String
    public var seat: Int
    /// Unix milliseconds.
    public var refundedAt: Int64
    public var reason: String
    public var operatorName: String
    /// Where the seat's sale went, one stored column for both: the reservation a sold reservation's
    /// seat went back to (`r_…`), or the sale an exchange replaced it with (`x_…`); nil: back on sale.
    public var returnedTo: String?
    /// What the buyer's refund of this seat cost (the show's `refundTiers`), in its currency; nil: nothing.
    public var fee: Decimal?
    public init(
        holdID: String, seat: Int, refundedAt: Int64, reason: String, operatorName: String, returnedTo: String? = nil, fee: Decimal? = nil
    ) {
        self.holdID = holdID; self.seat = seat; self.refundedAt = refundedAt; self.reason = reason; self.operatorName = operatorName
        self.returnedTo = returnedTo; self.fee = fee
    }

    /// The prefix of a sale made by an exchange (its id), which tells it from a reservation in `returnedTo`.
    public static let exchangePrefix = "x_"

    /// The sale that replaced this seat's, when the seat was given back in an exchange.
    public var exchangedTo: String? { returnedTo.flatMap { $0.hasPrefix(Self.exchangePrefix) ? $0 : nil } }

    /// The reservation the seat went back to (a sold reservation's seat, refunded), nil: back on sale or exchanged.
    public var reservation: String? { exchangedTo == nil ? returnedTo : nil }

    /// The reason of a season holder's night offered for sale: no money goes back (reports count it at 0).
    public static let seasonRelease = "season night released"

    /// Whether this is a season night offered for sale, not a refund.
    public var isSeasonRelease: Bool { reason == Self.seasonRelease }
}

/// A response kept for an `Idempotency-Key`, so a retried request is answered, not applied again.
public struct StoredResponse: Sendable, Hashable {
    public var key: String
    /// A hash of what was asked, so a key reused for a different request is refused.
    public var requestFingerprint: String
    public var status: Int
    public var body: [UInt8]

    public init(key: String, requestFingerprint: String, status: Int, body: [UInt8]) {
        self.key = key; self.requestFingerprint = requestFingerprint; self.status = status; self.body = body
    }
}

/// What became of one change of a batch.
public enum CommitOutcome: Sendable {
    /// Stored as `version`, with this event (the compact delta).
    case committed(version: UInt64, delta: String)
    /// The store said no (a seat or a hold another instance changed first); nothing of it was written.
    case refused(StoreError)
}

/// The storage protocol: SQLite (one process, versions given by the inventory) and PostgreSQL (several
/// instances, versions given by the database).
public protocol SeatStore: AnyObject, Sendable {
    /// What the store adds when several instances share it (it numbers each show's changes itself:
    /// the inventory then learns versions from `commit` and other instances' changes from `events`);
    /// nil for a store this process owns alone, whose versions the inventory gives.
    var sharing: (any SharedStore)? { get }
    /// Where the shows' waiting rooms are kept (both stores keep them; a test's store may not).
    var waitingRooms: (any QueueStore)? { get }
    /// Where the door's scans are kept (both stores keep them; a test's store may not).
    var door: (any DoorStore)? { get }
    /// Buyers' names and phones given with counter sales (`ContactStore`).
    var contacts: (any ContactStore)? { get }
    /// Erasing and re-sealing buyers' personal data (both stores; a test's store may keep none).
    var personalData: (any PersonalDataStore)? { get }
    /// Seasons (nil: this store keeps none).
    var seasons: (any SeasonStore)? { get }
    /// Cinemas and operators (`StaffStore`; both stores keep them, a test's store may not).
    var staff: (any StaffStore)? { get }
    /// Buyers' payments (`PaymentStore`; both stores keep them, a test's store may not).
    var payments: (any PaymentStore)? { get }
    /// Webhook endpoints and deliveries (`WebhookStore`; both stores keep them, a test's store may not).
    var webhooks: (any WebhookStore)? { get }
    /// Waitlists for freed seats (`WaitlistStore`; both stores keep them, a test's store may not).
    var waitlists: (any WaitlistStore)? { get }
    /// The parts whose logs are read and whose deliveries are sent each on its own (one store; a sharded
    /// store's shards, each with its own log, cursor and deliveries).
    var webhookParts: [any WebhookOutbox] { get }
    /// Where each show lives, for a store of several databases (shards); nil for one database.
    var placement: (any ShowPlacement)? { get }
    func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws
    func venues() throws -> [(id: String, layoutJSON: [UInt8])]
    func insertShow(_ show: ShowRecord) throws
    func shows() throws -> [ShowRecord]
    func claims(show: String) throws -> [Claim]
    func activeHolds() throws -> [HoldRecord]
    func hold(tokenDigest: String) throws -> HoldRecord?
    /// Applies commits in one transaction, flushed to disk before returning when any of them is durable.
    /// A store that assigns versions may refuse single commits; one that does not commits all or none
    /// and throws `DatabaseError` (`isConstraint` when a seat is taken).
    func commit(batch: [StoreCommit]) throws -> [CommitOutcome]
    /// The seats a hold claims, ascending.
    func holdSeats(holdID: String) throws -> [Int]
    /// A hold and its seats in one read (nil: no such token).
    func holdWithSeats(tokenDigest: String) throws -> (record: HoldRecord, seats: [Int])?
    /// The active holds of one show.
    func activeHolds(show: String) throws -> [HoldRecord]
    /// Every show's current version (what an instance compares with its own to catch up).
    func showVersions() throws -> [String: UInt64]
    /// Deltas after `version`, oldest first, from the show's log (nil when it does not reach back that
    /// far: a store that lost versions; the log is otherwise kept whole).
    func events(show: String, after version: UInt64, limit: Int) throws -> [(version: UInt64, delta: String)]?
    func storedResponse(key: String) throws -> StoredResponse?
    /// The same, when the answer would have been kept by a change of `show` (a store of several
    /// databases then reads only that show's).
    func storedResponse(key: String, show: String?) throws -> StoredResponse?
    /// Drops idempotency answers older than `idempotencyMilliseconds`, so they do not pile up. The
    /// show's log (its events) is kept with the show: it is the box office's record of who did what.
    func prune(idempotencyMilliseconds: Int64) throws
    /// Per seat, in how many of this venue's shows that started between `since` and `until` it sold.
    func salesHistory(venue: String, since: Date, until: Date) throws -> (shows: Int, soldCounts: [Int: Int])
    /// The confirmed holds (online purchases, counter sales, sold reservations) under `orderRef`, each
    /// with the seats it sold, oldest first.
    func orders(orderRef: String) throws -> [(record: HoldRecord, seats: [Int])]
    /// A hold by its id (not its token: box-office reservations are found by id) and its seats.
    func holdWithSeats(id: String) throws -> (record: HoldRecord, seats: [Int])?
    /// The show's sales (confirmed holds: online, counter, sold reservations), each with the seats it
    /// still has sold, oldest first.
    func sales(show: String) throws -> [(record: HoldRecord, seats: [Int])]
    /// The refunds of these sales (confirmed holds), oldest first.
    func refunds(holdIDs: [String]) throws -> [RefundRecord]
    /// The show's log after `version`, oldest first, at most `limit` lines.
    func log(show: String, after version: UInt64, limit: Int) throws -> [LogRecord]
    /// The claims of a hold that carry an attendee (a real-name show's), by seat.
    func attendeeClaims(show: String, holdID: String) throws -> [Claim]
}

extension SeatStore {
    public func storedResponse(key: String, show: String?) throws -> StoredResponse? { try storedResponse(key: key) }

    public func attendeeClaims(show: String, holdID: String) throws -> [Claim] {
        try claims(show: show).filter { $0.holdID == holdID && $0.identity != nil }
    }

    public func activeHolds(show: String) throws -> [HoldRecord] { try activeHolds().filter { $0.showID == show } }

    public func holdWithSeats(tokenDigest: String) throws -> (record: HoldRecord, seats: [Int])? {
        guard let record = try hold(tokenDigest: tokenDigest) else { return nil }
        return (record, try holdSeats(holdID: record.id))
    }
}
