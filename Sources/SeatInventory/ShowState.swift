import Foundation
import SeatDomain
import SeatJSON
import SeatMap

/// A venue as the inventory keeps it: the layout and its canonical JSON (what the store keeps). Immutable.
package final class VenueEntry: Sendable {
    package let layout: VenueLayout
    package let json: [UInt8]
    /// A strong validator: the layout's fingerprint.
    package var etag: String { "\"\(layout.fingerprintHex)\"" }
    init(layout: VenueLayout) { self.layout = layout; self.json = layout.jsonBytes() }
}

/// A live hold: its record and its seats.
struct ActiveHold {
    var record: HoldRecord
    var seats: [SeatIndex]
}

/// One show's state in memory: live holds, prices, rules, and two availabilities: `availability`
/// includes changes queued for the store (what new requests are checked against), `committed` only what
/// the store has (what readers and subscribers see).
final class ShowState {
    /// The show as stored; its own fields change only by a versioned change (`Inventory+ShowEdits`).
    private(set) var record: ShowRecord
    let venue: VenueEntry
    /// Today's prices: what new holds and sales cost.
    private(set) var prices: SeatPrices
    /// Every price table the show has had, oldest first (the last is `prices`): holds and sales keep
    /// the revision they were priced at.
    private(set) var priceRevisions: [SeatPrices]
    let policy: SelectionPolicy
    var availability: SeatAvailability
    var committed: SeatAvailability
    /// The last version at which a sold seat stopped being sold (a refund, ours or another instance's;
    /// a reload counts as one). An order read from the store before it may name a seat that has since
    /// been refunded and sold again to someone else; one read after it cannot.
    var soldFreedVersion: UInt64 = 0
    /// Live holds by token digest.
    var holds: [String: ActiveHold] = [:]
    /// The token digest of the hold each waiting-room admission last made here: a hint, checked against
    /// `holds` when read (a hold that ended is simply gone from there). Not rebuilt by a reload: the
    /// store's unique index on active holds keeps the rule across instances and reloads.
    var holdByAdmission: [String: String] = [:]
    /// Admissions that bought here (a hold confirmed, an exchange made): one admission is one purchase.
    /// A hint like `holdByAdmission`: the store's unique index over active and confirmed holds is the rule.
    var spentAdmissions: Set<String> = []
    /// The show's waitlist entries waiting, as the offerer last read them (every half second) or this
    /// instance added them: what seats freed by an exchange or a channel's end are kept back for.
    var waitlistLine: [WaitlistEntry] = []
    /// Seats with a change of ours reserved but not yet committed, and how many: with a shared store,
    /// events read back from the log must not overwrite them in `availability` (ours is newer there).
    var pendingSeats: [SeatIndex: Int] = [:]
    private var encodedCache: (UInt64, String)?
    /// When the show starts (Unix milliseconds): sales close then (nil: a time this server cannot read,
    /// from a store written by another version; such a show stays on sale).
    private(set) var startsAtMilliseconds: Int64?

    /// Changes of the show's own fields of ours not yet committed: a row read from the store meanwhile
    /// is older than memory and must not replace it.
    var pendingShowEdits = 0

    /// How the show sells by real name (`details.realName`), read when its fields are installed.
    private(set) var realName = RealNamePolicy.none
    /// The attendees of held and sold seats (a real-name show's), and the seat each document has: what
    /// refuses a document's second seat at once (the store's unique index refuses it across instances).
    private(set) var attendees: [SeatIndex: SeatAttendee] = [:]
    private(set) var seatOfIdentity: [String: SeatIndex] = [:]

    /// `seat`'s attendee from now on (another's binding of the seat is replaced).
    func bind(_ seat: SeatIndex, _ attendee: SeatAttendee) {
        unbind(seat)
        attendees[seat] = attendee
        seatOfIdentity[attendee.identity] = seat
    }

    /// `seat` without an attendee (its claim went: released, expired, refunded, moved).
    /// The attendees of `seats` (a hold's): O(seats), not a scan of the show's attendees.
    func attendees(of seats: some Sequence<SeatIndex>) -> [SeatIndex: SeatAttendee] {
        guard !attendees.isEmpty else { return [:] }
        var out: [SeatIndex: SeatAttendee] = [:]
        for seat in seats { if let a = attendees[seat] { out[seat] = a } }
        return out
    }

    func unbindAll() {
        attendees = [:]
        seatOfIdentity = [:]
    }

    func unbind(_ seat: SeatIndex) {
        guard let old = attendees.removeValue(forKey: seat) else { return }
        if seatOfIdentity[old.identity] == seat { seatOfIdentity[old.identity] = nil }
    }

    func reserve(_ changes: [SeatChange]) { for c in changes { pendingSeats[c.seat, default: 0] += 1 } }

    func settle(_ changes: [SeatChange]) {
        for c in changes {
            if let n = pendingSeats[c.seat], n > 1 { pendingSeats[c.seat] = n - 1 } else { pendingSeats[c.seat] = nil }
        }
    }

    init(record: ShowRecord, venue: VenueEntry, revisions: [SeatPrices], policy: SelectionPolicy, availability: SeatAvailability) {
        self.record = record; self.venue = venue; self.prices = revisions[revisions.count - 1]; self.priceRevisions = revisions
        self.policy = policy; self.availability = availability; self.committed = availability
        startsAtMilliseconds = Self.milliseconds(ofTimestamp: record.startsAt)
        realName = Self.realName(of: record)
    }

    /// The policy in the record's details (most shows have none: their details are not parsed for it).
    static func realName(of record: ShowRecord) -> RealNamePolicy {
        record.detailsJSON.contains("\"realName\"") ? RealNamePolicy(detailsJSON: record.detailsJSON) : .none
    }

    /// Installs the show's new fields (an edit, a price change) with the new table when it has one.
    func replace(record new: ShowRecord, prices table: SeatPrices?) {
        replace(record: new, revisions: table.map { priceRevisions + [$0] } ?? priceRevisions)
    }

    /// Installs the show's new fields and every price table it has had.
    func replace(record new: ShowRecord, revisions: [SeatPrices]) {
        record = new
        startsAtMilliseconds = Self.milliseconds(ofTimestamp: new.startsAt)
        realName = Self.realName(of: new)
        priceRevisions = revisions
        prices = revisions[revisions.count - 1]
    }

    /// The version a change of ours reached (the store's, with a shared store).
    func setVersion(_ version: UInt64) { record.version = version }

    /// An ISO 8601 time with its offset (`2026-12-01T19:30:00+08:00`, fractions of a second allowed).
    static func milliseconds(ofTimestamp text: String) -> Int64? { Timestamp.milliseconds(text) }

    /// When the show ends: its start plus its running time (`details.duration`), or `assumedRunningMinutes`
    /// after the start when it gives none. Nil when the start cannot be read.
    var endsAtMilliseconds: Int64? {
        guard let starts = startsAtMilliseconds else { return nil }
        let details = (try? JSONParser.parse(Array(record.detailsJSON.utf8)))?.objectValue
        let minutes = details?["duration"]?.intValue ?? Self.assumedRunningMinutes
        return starts + Int64(minutes) * 60_000
    }

    /// A show without a running time is taken to last 4 hours: longer than any film in Chinese cinemas
    /// (the longest on general release run about 3 h 20 min), so a reservation kept "until the end" fits.
    static let assumedRunningMinutes = 240

    var layout: VenueLayout { venue.layout }

    /// The committed availability's compact encoding, computed once per version.
    var encoded: String {
        if let (v, text) = encodedCache, v == committed.version { return text }
        let text = committed.encoded()
        encodedCache = (committed.version, text)
        return text
    }
}
