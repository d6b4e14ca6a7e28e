/// A buyer in line for seats freed after a sell-out (候补, #54): what they want and how far they got. The
/// entry's token is the buyer's capability: the store keeps its digest only.
public struct WaitlistEntry: Sendable, Hashable {
    public enum State: String, Sendable, CaseIterable {
        /// In line.
        case waiting
        /// Seats held for them (`offerHold`) until the hold's end.
        case offered
        /// The offer was paid for and sold.
        case bought
        /// The offer ended unpaid: the seats went to the next in line.
        case lapsed
        /// The buyer left the line.
        case cancelled

        /// Still in the line or holding an offer.
        public var isOpen: Bool { self == .waiting || self == .offered }
    }

    /// The place in the show's line: 1, 2, 3… in the order the entries came.
    public var seq: Int64
    public var showID: String
    /// `Secrets.tokenDigest` of the entry's token.
    public var digest: String
    /// A price category wanted, or a zone (nil both: any seat).
    public var category: String?
    public var zone: String?
    public var count: Int
    /// The attendees for a real-name show, sealed (`PersonalDataKeys`); nil when none were given.
    public var attendees: String?
    public var state: State
    /// Offers made so far (an offer's hold token is drawn from the entry and this number).
    public var offers: Int
    /// The hold of the latest offer.
    public var offerHold: String?
    /// A prepaid entry's payment (`pay_…`, its `holdID` `w_` and this entry's digest): the entry is
    /// offered nothing until it is paid (`paidAt`), and the money goes back in full when nothing comes.
    public var payment: String?
    /// When the provider said the prepayment was taken (Unix milliseconds).
    public var paidAt: Int64?
    /// Why a closed entry closed, in the buyer's words (the show began before seats came back…).
    public var outcome: String?
    /// Unix milliseconds.
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        seq: Int64 = 0, showID: String, digest: String, category: String?, zone: String?, count: Int, attendees: String?, state: State = .waiting,
        offers: Int = 0, offerHold: String? = nil, payment: String? = nil, paidAt: Int64? = nil, outcome: String? = nil, createdAt: Int64,
        updatedAt: Int64
    ) {
        self.seq = seq; self.showID = showID; self.digest = digest; self.category = category; self.zone = zone; self.count = count
        self.attendees = attendees; self.state = state; self.offers = offers; self.offerHold = offerHold; self.payment = payment; self.paidAt = paidAt
        self.outcome = outcome; self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The payment id a prepaid entry's payment names as its hold: `w_` and the entry's digest.
    public var prepaymentHoldID: String { "w_" + digest }

    /// Whether `holdID` (a payment's) is a waitlist entry's prepayment.
    public static func isPrepayment(holdID: String) -> Bool { holdID.hasPrefix("w_") }

    /// Waiting and offerable: not waiting for its prepayment.
    public var isInLine: Bool { state == .waiting && (payment == nil || paidAt != nil) }
}

/// Where the waitlists are kept. Changes are compare-and-set, so instances racing to offer one entry
/// make one offer.
public protocol WaitlistStore: AnyObject, Sendable {
    /// Puts the entry at the end of its show's line; answers its `seq`.
    func addWaitlistEntry(_ entry: WaitlistEntry) throws -> Int64
    /// The entry whose token has this digest (any show).
    func waitlistEntry(digest: String) throws -> WaitlistEntry?
    /// The show's open entries (waiting or offered), in line order.
    func openWaitlist(show: String) throws -> [WaitlistEntry]
    /// Shows with an open entry.
    func waitlistShows() throws -> [String]
    /// Writes `entry`'s state, offers, offer hold and outcome over the stored one when that is still in
    /// `state` with `offers` offers; false otherwise. Never its `paidAt` (`markWaitlistPrepaid`'s).
    func updateWaitlistEntry(_ entry: WaitlistEntry, whenState state: WaitlistEntry.State, offers: Int) throws -> Bool
    /// Records that the show's entry `seq` was paid at `time`, when it is still waiting and was not; false otherwise.
    func markWaitlistPrepaid(show: String, seq: Int64, at time: Int64) throws -> Bool
    /// The entry whose token has this digest, on the show's own store (a sharded store asks one shard).
    func waitlistEntry(show: String, digest: String) throws -> WaitlistEntry?
}
