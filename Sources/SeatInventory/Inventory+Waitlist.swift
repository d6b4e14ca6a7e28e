import Foundation
import SeatDomain
import SeatMap
import SeatSecrets

/// Returned tickets in order (候补, #54): a show with `details.waitlist` keeps the seats a refund frees
/// for its line instead of the public. They wait in the show's waitlist pool, a channel (its seats
/// `blocked` to everyone else) whose id says what it is (`c_…wl…`); the first entry in line that wants
/// them gets an offer, a partner's hold drawn from the pool (its claims move in one commit) for
/// `offerMinutes`, its token drawn from the entry's, so only the entry's holder can act on it and a
/// database copy cannot. An offer that ends unpaid takes its seats back to the pool, and the next in
/// line gets them; seats nobody in line wants go on sale. The entries are the store's
/// (`WaitlistStore`); every change of one is compare-and-set, so instances racing make one offer.
extension Inventory {
    /// What a pool's id carries after the shard's tag, so every instance knows it from its id.
    static let waitlistMark = "wl"

    /// A show's waitlist pool: a channel whose id carries `waitlistMark`.
    static func isWaitlistPool(_ r: HoldRecord) -> Bool { isChannel(r) && isWaitlistPool(id: r.id) }

    /// Whether a channel's id (`c_…`) is a waitlist pool's.
    static func isWaitlistPool(id: String) -> Bool {
        guard id.hasPrefix("c_") else { return false }
        let body = id.dropFirst(2)
        let afterTag = body.firstIndex(of: ".").map { body[body.index(after: $0)...] } ?? body
        return afterTag.hasPrefix(waitlistMark)
    }

    /// A partner's hold (drawn from a partner's channel, paid at the partner): not a waitlist's offer,
    /// which is drawn from the show's pool and paid by its buyer like any hold.
    public static func isPartnerHold(id: String) -> Bool { channelID(ofHold: id).map { !isWaitlistPool(id: $0) } ?? false }

    /// A new pool's id: the shard's tag, the mark, then a fresh id.
    func waitlistPoolID(show: String, _ now: Int64) -> (id: String, token: String) {
        let (random, token) = Self.randomIDAndToken(prefix: Self.timePrefix(now))
        return ("c_" + (placement?.idTag(show: show) ?? "") + Self.waitlistMark + random, token)
    }

    /// An entry as its holder sees it.
    public struct WaitlistView: Sendable {
        /// The entry's token, given once, when it is made.
        public var entry: String?
        public var showID: String
        public var state: WaitlistEntry.State
        /// Waiting: 1 is next.
        public var position: Int?
        public var category: String?
        public var zone: String?
        public var count: Int
        /// Offered: the hold's token (pay through its checkout), its end and seats.
        public var offer: Offer?
        public var createdAt: Int64
        /// A prepaid entry's payment as the store has it, and what of it went back (minor units).
        public var prepayment: PaymentRecord?
        public var refunded: Int64 = 0
        /// Why a closed entry closed.
        public var outcome: String?
        /// Bought: the order, the code its buyer reads it with (the offer's token), and its seats.
        public var order: (ref: String, code: String, seatIDs: [String])?

        public struct Offer: Sendable {
            public var token: String
            public var expiresAt: Int64
            public var seatIDs: [String]
        }
    }

    func waitlistStore() throws(Refusal) -> any WaitlistStore {
        guard let store = store.waitlists else { throw Refusal(.storeFailed, detail: "this store keeps no waitlists") }
        return store
    }

    /// The token of an entry's `n`th offer's hold: a keyed hash of the entry's digest (the key is outside
    /// the database), so the holder of the entry's token, and only they, can be told it.
    func offerToken(entryDigest: String, offer n: Int) -> String {
        "wo_" + personalData.index("\(entryDigest)#\(n)", purpose: "waitlist-offer")
    }

    /// Whether `entry` wants `seat`: its category, its zone, or any seat.
    static func wants(_ entry: WaitlistEntry, _ seat: SeatIndex, in layout: VenueLayout) -> Bool {
        let zone = layout.zone(of: seat)
        if let category = entry.category { return zone.category == category }
        if let id = entry.zone { return zone.id == id }
        return true
    }

    /// Puts a buyer in the show's line for `count` seats of a category, a zone, or any. A show without
    /// a waitlist is a 409; a category or zone the show does not have, a 422 naming it; a show whose
    /// waitlist prepays, a 422 naming `prepay` (its joins go through `prepareWaitlistJoin`).
    public func joinWaitlist(
        show showID: String, category: String?, zone: String?, count: Int, attendees: [AttendeeInput] = []
    ) throws(Refusal) -> WaitlistView {
        let join = try prepareWaitlistJoin(show: showID, category: category, zone: zone, count: count, attendees: attendees)
        if join.prepay != nil {
            throw Refusal.invalid(path: "prepay", "show \(showID)'s waitlist is prepaid: say how the entry is paid ({\"provider\": …})")
        }
        return try addWaitlistJoin(join, payment: nil)
    }

    /// A join checked and ready: its entry and token, and what it is to prepay.
    public struct WaitlistJoin: Sendable {
        /// The entry's token (the buyer's capability, told once).
        public var token: String
        var entry: WaitlistEntry
        /// A prepaid waitlist's: the most the entry's seats can cost now (nil: the waitlist does not prepay).
        public var prepay: Money?
        public var showID: String { entry.showID }
        /// What the entry's payment names as its hold.
        public var holdID: String { entry.prepaymentHoldID }
        /// `prepay` in the currency's minor units (fen).
        public var prepayUnits: Int64 { prepay.map { NSDecimalNumber(decimal: $0.amount * pow(10, $0.digits)).int64Value } ?? 0 }
    }

    /// Checks a join (the show keeps a waitlist, has not begun, has the category or zone, the count is
    /// within its limit, a real-name show's attendees) and makes its entry; nothing is stored yet.
    public func prepareWaitlistJoin(
        show showID: String, category: String?, zone: String?, count: Int, attendees: [AttendeeInput] = []
    ) throws(Refusal) -> WaitlistJoin {
        _ = try waitlistStore()
        let now = clock()
        var sealed: String?
        var prepay: Money?
        try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) in
            let state = try state(forShow: showID, in: m)
            try checkNotCancelled(state)
            guard let policy = WaitlistPolicy(detailsJSON: state.record.detailsJSON) else {
                throw Refusal(.waitlistClosed, detail: "show \(showID) keeps no waitlist")
            }
            if let starts = state.startsAtMilliseconds, starts <= now { throw Refusal(.showStarted, detail: "show \(showID) has started") }
            if category != nil && zone != nil { throw Refusal.invalid(path: "zone", "give a price category or a zone, not both") }
            let table = state.prices.table
            if let category, table.categoryPrices[category] == nil {
                throw Refusal.invalid(
                    path: "price", "show \(showID) has no category \"\(category)\" (it has \(table.categoryPrices.keys.sorted().joined(separator: ", ")))")
            }
            if let zone, !state.layout.zones.contains(where: { $0.id == zone }) {
                throw Refusal.invalid(path: "zone", "venue \(state.layout.id) has no zone \"\(zone)\"")
            }
            guard (1...state.policy.maxSeats).contains(count) else {
                throw Refusal.invalid(path: "count", "1 to \(state.policy.maxSeats) seats (the show's limit), got \(count)")
            }
            sealed = try sealedWaitlistAttendees(attendees, count: count, in: state)
            if policy.prepay { prepay = try mostWaitlistSeatsCost(category: category, zone: zone, count: count, in: state) }
        }
        let token = "wl_" + Self.randomIDAndToken(prefix: "").token
        let entry = WaitlistEntry(
            showID: showID, digest: Secrets.tokenDigest(token), category: category, zone: zone, count: count, attendees: sealed, createdAt: now,
            updatedAt: now)
        return WaitlistJoin(token: token, entry: entry, prepay: prepay)
    }

    /// Puts a checked join at the end of its show's line. A prepaid one comes with its payment, as its
    /// provider made it (`pending`): written first, durably, so a payment is never taken for an entry
    /// the store does not know of without being on the reconciliation report.
    public func addWaitlistJoin(_ join: WaitlistJoin, payment: PaymentRecord?) throws(Refusal) -> WaitlistView {
        let waitlists = try waitlistStore()
        var entry = join.entry
        if let payment {
            guard payment.holdID == join.holdID, payment.amount == join.prepayUnits else {
                throw Refusal(.storeFailed, detail: "the payment is not this entry's")
            }
            try wait(try beginRecordPayment(payment, action: "waitlist-prepay"))
            entry.payment = payment.id
        }
        do {
            entry.seq = try waitlists.addWaitlistEntry(entry)
        } catch { throw Self.storeRefusal(error) }
        metrics.count("waitlist_joined")
        locked { m in m.shows[entry.showID]?.waitlistLine.append(entry) }
        var view = try waitlistView(entry, waitlists)
        view.entry = join.token
        nudgeWaitlist()
        return view
    }

    /// The entry of `token` as it is now (offers settled first: a paid one reads `bought`).
    public func waitlistEntry(token: String) throws(Refusal) -> WaitlistView {
        let waitlists = try waitlistStore()
        let entry = try storedEntry(token, waitlists)
        if entry.state == .offered { _ = try? offerWaitlist(show: entry.showID) }
        // A closed prepaid entry whose money was not on its way back (a crash between the two): now.
        if !entry.state.isOpen, entry.payment != nil { settlePrepayment(of: entry, reason: entry.outcome ?? "the entry closed") }
        return try waitlistView(try storedEntry(token, waitlists), waitlists)
    }

    /// The buyer leaves the line; an offer they hold is let go (its seats go to the next in line).
    public func leaveWaitlist(token: String) throws(Refusal) -> WaitlistView {
        let waitlists = try waitlistStore()
        for _ in 0..<5 {
            let entry = try storedEntry(token, waitlists)
            guard entry.state.isOpen else { return try waitlistView(entry, waitlists) }
            var left = entry
            left.state = .cancelled
            left.outcome = "left the waitlist"
            left.updatedAt = clock()
            let done: Bool
            do { done = try waitlists.updateWaitlistEntry(left, whenState: entry.state, offers: entry.offers) } catch { throw Self.storeRefusal(error) }
            guard done else { continue }
            if entry.state == .offered { try? releaseHold(token: offerToken(entryDigest: entry.digest, offer: entry.offers - 1)) }
            settlePrepayment(of: left, reason: "you left the waitlist")
            metrics.count("waitlist_left")
            nudgeWaitlist()
            return try waitlistView(left, waitlists)
        }
        throw Refusal(.showChanged, detail: "the waitlist entry kept changing; try again")
    }

    /// The entry of `token`, or a 404.
    func storedEntry(_ token: String, _ waitlists: any WaitlistStore) throws(Refusal) -> WaitlistEntry {
        let found: WaitlistEntry?
        do { found = try waitlists.waitlistEntry(digest: Secrets.tokenDigest(token)) } catch { throw Self.storeRefusal(error) }
        guard let found else { throw Refusal(.notFound, detail: "no waitlist entry for this token") }
        return found
    }

    func waitlistView(_ e: WaitlistEntry, _ waitlists: any WaitlistStore) throws(Refusal) -> WaitlistView {
        var view = WaitlistView(
            showID: e.showID, state: e.state, category: e.category, zone: e.zone, count: e.count, createdAt: e.createdAt, outcome: e.outcome)
        if let id = e.payment, let payments = store.payments {
            do {
                view.prepayment = try payments.payment(id: id)
                view.refunded = try payments.paymentRefunds(payment: id).filter { $0.state != .failed }.reduce(0) { $0 + $1.amount }
            } catch { throw Self.storeRefusal(error) }
        }
        if e.state == .waiting {
            let line: [WaitlistEntry]
            do { line = try waitlists.openWaitlist(show: e.showID) } catch { throw Self.storeRefusal(error) }
            view.position = line.filter { $0.state == .waiting && $0.seq < e.seq }.count + 1
        }
        if e.state == .bought {
            let token = offerToken(entryDigest: e.digest, offer: e.offers - 1)
            let read: (record: HoldRecord, seats: [Int])?
            do { read = try store.holdWithSeats(tokenDigest: Secrets.tokenDigest(token)) } catch { throw Self.storeRefusal(error) }
            if let read, let ref = read.record.orderRef {
                let layout = locked { m in m.shows[e.showID]?.layout }
                view.order = (ref, token, read.seats.sorted().compactMap { layout?.seatID($0) })
            }
        }
        if e.state == .offered {
            let token = offerToken(entryDigest: e.digest, offer: e.offers - 1)
            let found: (record: HoldRecord, seats: [Int])?
            do { found = try store.holdWithSeats(tokenDigest: Secrets.tokenDigest(token)) } catch { throw Self.storeRefusal(error) }
            if let read = found, read.record.state == .active {
                let layout = locked { m in m.shows[e.showID]?.layout }
                view.offer = .init(token: token, expiresAt: read.record.expiresAt, seatIDs: read.seats.sorted().compactMap { layout?.seatID($0) })
            }
        }
        return view
    }

    /// Of `freed` seats of `state`, those its line wants (`line`: the store's, read by a refund; else the
    /// one the offerer last read, `waitlistLine`), with the pool they go to (the live one, or a new one);
    /// nil when none is wanted or the show keeps no waitlist. Under the lock.
    func waitlistPool(
        for freed: [SeatIndex], in state: ShowState, now: Int64, line: [WaitlistEntry]? = nil
    ) -> (record: HoldRecord, seats: [SeatIndex])? {
        let line = line ?? state.waitlistLine
        guard !line.isEmpty, WaitlistPolicy(detailsJSON: state.record.detailsJSON) != nil else { return nil }
        let wanted = freed.filter { seat in line.contains { Self.wants($0, seat, in: state.layout) } }
        guard !wanted.isEmpty else { return nil }
        if let live = state.holds.values.first(where: { Self.isWaitlistPool($0.record) }) { return (live.record, wanted) }
        let (id, token) = waitlistPoolID(show: state.record.id, now)
        let record = HoldRecord(
            id: id, tokenDigest: Secrets.tokenDigest(token), showID: state.record.id, state: .active, expiresAt: Self.never, extended: false,
            orderRef: nil, wheelchair: false, createdAt: now, kind: .blocked, reason: "候补 waitlist", operatorName: "waitlist")
        return (record, wanted)
    }

    /// The pool takes `pooled`'s seats in memory, once their change is queued; the offerer is woken.
    /// Under the lock.
    func keep(_ pooled: (record: HoldRecord, seats: [SeatIndex]), in state: ShowState, _ m: Memory) {
        let digest = pooled.record.tokenDigest
        state.holds[digest] = ActiveHold(record: pooled.record, seats: ((state.holds[digest]?.seats ?? []) + pooled.seats).sorted())
        m.holdShow[digest] = state.record.id
        nudgeWaitlist()
    }
}
