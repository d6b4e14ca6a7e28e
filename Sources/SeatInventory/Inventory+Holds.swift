import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SeatSecrets

/// What the API returns for a hold.
public struct HoldView: Sendable {
    public var token: String
    public var holdID: String
    public var showID: String
    public var seatIDs: [String]
    public var total: Money
    public var currency: String
    public var expiresAt: Int64
    public var extended: Bool
    public var version: UInt64
    public var state: HoldState
    public var orderRef: String?
    /// The payment it is being paid with (a buyer's hold after its checkout): live, kept for the
    /// payment's window, and nobody may change it.
    public var payment: String? = nil
    /// Whether it is live and being paid for.
    public var paying: Bool { state == .active && payment != nil }
    /// A real-name show's attendees of its seats, masked.
    public var attendees: [AttendeeView] = []
}

/// An `Idempotency-Key` and what the request asked, and how to render the answer (a `View`: a hold,
/// a reservation, an order) to keep for a retry.
public struct IdempotentRequest<View: Sendable>: Sendable {
    /// The store's key: a digest of the scope and the client's key (`Secrets.idempotencyDigest`).
    public var key: String
    public var fingerprint: String
    /// The answer's body (how it is sent, its status and headers, is the API's to say).
    public var render: @Sendable (View) -> [UInt8]
    /// The client's own key and its scope: they seal the kept answer (it carries the hold token), so a
    /// copy of the store cannot replay it.
    let scope: String
    let clientKey: String

    public init(scope: String, clientKey: String, fingerprint: String, render: @escaping @Sendable (View) -> [UInt8]) {
        self.scope = scope; self.clientKey = clientKey; self.fingerprint = fingerprint; self.render = render
        key = Secrets.idempotencyDigest(scope: scope, key: clientKey)
    }

    /// The answer to keep: sealed under the client's key, as base64 text (both stores keep text).
    func kept(_ view: View) -> StoredResponse {
        let sealed = Secrets.seal(render(view), scope: scope, key: clientKey)
        // No status: a replay is answered with its route's (answers kept before carry theirs, unread).
        return StoredResponse(key: key, requestFingerprint: fingerprint, status: 0, body: Array(Data(sealed).base64EncodedString().utf8))
    }

    /// A kept answer opened with the client's key (nil: not one of ours).
    func open(_ stored: [UInt8]) -> [UInt8]? {
        guard let data = Data(base64Encoded: Data(stored)) else { return nil }
        return Secrets.seal(Array(data), scope: scope, key: clientKey)
    }
}

/// The outcome of an operation: fresh, or the kept answer to an earlier request with the same key.
public enum Answer<View: Sendable>: Sendable {
    case done(View)
    /// The kept answer's body, for a retried request with the same key.
    case replayed(body: [UInt8])
}

public typealias HoldOutcome = Answer<HoldView>

/// The hold operations. Each is checked and reserved under the lock; `beginX` returns the answer and the
/// commit ticket, `X` waits for the commit (for callers that may block).
extension Inventory {
    public func createHold(
        show showID: String, seatIDs: [String], wheelchair: Bool, idempotency: IdempotentRequest<HoldView>?, admission: String? = nil
    ) throws(Refusal) -> HoldOutcome {
        let (outcome, ticket) = try beginCreateHold(show: showID, seatIDs: seatIDs, wheelchair: wheelchair, idempotency: idempotency, admission: admission)
        if let ticket { try wait(ticket) }
        return outcome
    }

    /// `createHold` without waiting: the answer and the ticket to wait on (nil: nothing to commit).
    /// `admission` is the waiting room's entry that let the buyer in: it has one active hold at a time
    /// (memory says so here; the store's unique index says so across instances).
    package func beginCreateHold(
        show showID: String, seatIDs: [String], wheelchair: Bool, places: [(area: String, count: Int)] = [],
        idempotency: IdempotentRequest<HoldView>?, admission: String? = nil, attendees: [AttendeeInput] = []
    ) throws(Refusal) -> (HoldOutcome, CommitTicket?) {
        let stored = try storedAnswer(idempotency, show: showID)
        let prepared = try prepareAttendees(attendees, show: showID)
        // Drawn, timed and digested before taking the lock: the lock guards only what must be decided
        // in order (the token's SHA-256 under it lengthened every hold's turn by ~1 µs).
        let now = clock()
        let (id, token) = Self.randomIDAndToken(prefix: idPrefix(show: showID, now))
        let tokenDigest = Secrets.tokenDigest(token)
        let (made, ticket) = try lockedWhenFresh(show: showID) {
            (m: Memory) throws(Refusal) -> (Either<HoldOutcome, (ActiveHold, VenueLayout, PriceRevisions, String, UInt64, [AttendeeView])>, CommitTicket?)
            in
            if let body = try replay(idempotency, stored: stored, in: m) { return (.first(.replayed(body: body)), nil) }
            let state = try state(forShow: showID, in: m)
            try checkOnSale(state)
            if let admission { try checkAdmissionFree(admission, in: state) }
            guard !seatIDs.isEmpty || !places.isEmpty else { throw Refusal(.noSeats, detail: "a hold needs at least one seat or place") }
            let named = try resolve(seatIDs, in: state.layout)
            try checkFree(named, in: state, own: [])
            // Places by count, chosen after the seats are known free: all or nothing with them.
            // A place named by id and its area asked for whole: one claim, not two.
            let seats = Set(named + (try choosePlaces(places, in: state, besides: named))).sorted()
            try checkRules(seats, in: state, own: [], wheelchair: wheelchair)
            let bound = try attendeesAfter(prepared, seats: seats, current: [:], in: state, m: m)
            let record = HoldRecord(
                id: "h_" + id, tokenDigest: tokenDigest, showID: showID, state: .active,
                expiresAt: now + Int64(state.record.holdSeconds) * 1000, extended: false, orderRef: nil,
                wheelchair: wheelchair, createdAt: now, prices: state.currentPricing.stored(in: state.prices.table), admission: admission)
            let hold = ActiveHold(record: record, seats: seats)
            let version = state.availability.version + 1
            // The answer kept for a retry must be in the same commit, so only then is it rendered here.
            let kept = idempotency.map { $0.kept(view(hold, in: state, token: token, version: version, attendees: bound)) }
            let ticket = try apply(
                state, in: m, changes: seats.map { SeatChange(seat: $0, status: .held) },
                insert: seats.map { Claim(seat: $0, status: .held, holdID: record.id, identity: bound[$0]?.identity, attendee: bound[$0]?.sealed) },
                holds: [record], idempotency: kept, log: LogEntry(action: "hold", holdID: record.id))
            for (seat, a) in bound { state.bind(seat, a) }
            let shown = attendeeViews(seats, in: state)
            state.holds[record.tokenDigest] = hold
            if let admission { state.holdByAdmission[admission] = record.tokenDigest }
            m.holdShow[record.tokenDigest] = showID
            return (.second((hold, state.layout, state.revisions, token, version, shown)), Self.namingSeats(ticket, bound, layout: state.layout, show: showID))
        }
        if case .second = made { metrics.count("holds_created") }
        switch made {
        case .first(let replayed): return (replayed, ticket)
        // Drawn outside the lock from values copied under it (the show's tables change under the lock).
        case .second(let (hold, layout, revisions, token, version, shown)):
            var view = Self.view(hold, layout: layout, revisions: revisions, token: token, version: version)
            view.attendees = shown
            return (.done(view), ticket)
        }
    }

    /// The live hold for a token digest, or a precise 404/410.
    func activeHold(_ token: String, snapshot: HoldSnapshot?, in m: Memory) throws(Refusal) -> (ShowState, ActiveHold) {
        apply(snapshot, in: m)
        if let showID = m.holdShow[token], let state = m.shows[showID], let hold = state.holds[token] {
            // A hold being paid for past its window is the sweeper's to end, once its provider has said
            // (or could not for `paymentGrace`): read here it is still paying, its seats still kept. Ended
            // on a read, a payment whose notification was late lost its seats before anyone asked.
            if hold.record.expiresAt <= clock() && !awaitsItsProvider(hold, now: clock()) {
                _ = try expire(hold, in: state, m)
                throw Refusal(.holdExpired, detail: "the hold expired and its seats were released")
            }
            return (state, hold)
        }
        // Ended here a moment ago, perhaps not yet in the store: say how.
        if let (ending, orderRef) = m.endedHolds[token] { try Self.refuseEnded(ending, orderRef: orderRef) }
        // Not known here: `lockedForHold` asks the store, after the lock.
        var unknown = Refusal(.notFound, detail: "no hold with this token")
        unknown.unknownHold = true
        throw unknown
    }

    /// `body` under the lock (it finds its hold with `activeHold`); a token memory does not know is
    /// looked up in the store afterwards, outside the lock, to say how its hold ended (or 404). It was
    /// read under the lock: every guessed or long-ended token cost all requests of all shows a store read.
    func lockedForHold<T: Sendable>(_ token: String, _ body: (Memory) throws(Refusal) -> T) throws(Refusal) -> T {
        do { return try locked(body) } catch  where error.unknownHold {
            let record: HoldRecord?
            do { record = try store.hold(tokenDigest: token) } catch { throw Self.storeRefusal(error) }
            if let record, record.state != .active { try Self.refuseEnded(record.state, orderRef: record.orderRef) }
            throw Refusal(.notFound, detail: "no hold with this token")
        }
    }

    /// A 410 or 409 saying how a hold ended.
    static func refuseEnded(_ ending: HoldState, orderRef: String?) throws(Refusal) {
        switch ending {
        case .expired: throw Refusal(.holdExpired, detail: "the hold expired and its seats were released")
        case .released: throw Refusal(.holdReleased, detail: "the hold was released")
        case .confirmed: throw Refusal(.holdConfirmed, detail: "the hold was confirmed as order \(orderRef ?? "")")
        case .active: return
        }
    }

    public func hold(token plain: String) throws(Refusal) -> HoldView {
        let token = Secrets.tokenDigest(plain)
        let snapshot = try readHold(tokenDigest: token)
        return try lockedForHold(token) { (m: Memory) throws(Refusal) -> HoldView in
            let (state, hold) = try activeHold(token, snapshot: snapshot, in: m)
            return view(hold, in: state, token: plain)
        }
    }

    /// Adds and removes seats atomically; the rules apply to the resulting set. Removing every seat
    /// releases the hold.
    public func modifyHold(token: String, add: [String], remove: [String]) throws(Refusal) -> HoldView {
        let (result, ticket) = try beginModifyHold(token: token, add: add, remove: remove)
        if let ticket { try wait(ticket) }
        return result
    }

    package func beginModifyHold(
        token: String, add: [String], remove: [String], places: [(area: String, count: Int)] = [], attendees: [AttendeeInput] = []
    ) throws(Refusal) -> (HoldView, CommitTicket?) {
        let plain = token, token = Secrets.tokenDigest(plain)
        let snapshot = try readHold(tokenDigest: token)
        let prepared = try prepareAttendees(attendees, forHold: token, snapshot: snapshot)
        return try lockedForHold(token) { (m: Memory) throws(Refusal) -> (HoldView, CommitTicket?) in
            let (state, hold) = try activeHold(token, snapshot: snapshot, in: m)
            try Self.refuseWhilePaying(hold)
            // A partner's hold changes within its channel: seats come from it and go back to it.
            if let pool = Self.channelID(ofHold: hold.record.id) {
                // A waitlist's offer is the seats offered: more would be taken from the next in line.
                if Self.isWaitlistPool(id: pool), !add.isEmpty || !places.isEmpty {
                    throw Refusal(.seatsTaken, detail: "a waitlist offer holds the seats offered only; seats may be let go, not added")
                }
                return try modifyPartnerHold(hold, token: plain, add: add, remove: remove, places: places, in: state, m)
            }
            var adding = try resolve(add, in: state.layout), removing = try resolve(remove, in: state.layout)
            let own = Set(hold.seats)
            if !places.isEmpty {
                let change = try placeChanges(places, own: own, in: state)
                adding += change.add
                removing += change.remove
            }
            if !adding.isEmpty { try checkOnSale(state) }
            let notHeld = removing.filter { !own.contains($0) }
            if !notHeld.isEmpty {
                throw Refusal(.notInHold, detail: "not in this hold: \(notHeld.map { state.layout.seatID($0) }.joined(separator: ", "))")
            }
            let result = own.union(adding).subtracting(removing).sorted()
            try checkFree(adding, in: state, own: own)
            if !result.isEmpty { try checkRules(result, in: state, own: own, wheelchair: hold.record.wheelchair) }
            let added = result.filter { !own.contains($0) }, dropped = hold.seats.filter { !result.contains($0) }
            // Attendees follow: given ones bound, a dropped seat's gone; a per-order document moves to the first seat.
            let current = state.attendees(of: own)
            let wanted = result.isEmpty ? [:] : try attendeesAfter(prepared, seats: result, current: current, in: state, m: m)
            let rebound = Self.rebound(from: current, to: wanted, seats: result.filter(own.contains), holdID: hold.record.id, status: .held)
            var record = hold.record
            if result.isEmpty { record.state = .released }
            record.prices = state.pricing(HoldPricing(stored: record.prices), adding: added, removing: dropped).stored(in: state.prices.table)
            let ticket = try apply(
                state, in: m, changes: added.map { SeatChange(seat: $0, status: .held) } + dropped.map { SeatChange(seat: $0, status: .available) },
                insert: added.map { Claim(seat: $0, status: .held, holdID: record.id, identity: wanted[$0]?.identity, attendee: wanted[$0]?.sealed) }
                    + rebound.insert,
                delete: dropped + rebound.delete, holds: [record], log: LogEntry(action: result.isEmpty ? "release" : "modify", holdID: record.id))
            for (seat, a) in wanted { state.bind(seat, a) }
            let updated = ActiveHold(record: record, seats: result)
            if result.isEmpty { m.ended(record, in: state); metrics.count("holds_released") } else { state.holds[token] = updated }
            return (view(updated, in: state, token: plain), Self.namingSeats(ticket, wanted, layout: state.layout, show: state.record.id))
        }
    }

    public func releaseHold(token: String) throws(Refusal) {
        try wait(try beginReleaseHold(token: token))
    }

    package func beginReleaseHold(token: String) throws(Refusal) -> CommitTicket {
        let digest = Secrets.tokenDigest(token)
        guard mode.followsOthers, let ticket = try releaseAsKnown(digest) else { return try releaseAsStored(digest) }
        return ticket.retried { () throws(Refusal) in try self.releaseAsStored(digest) }
    }

    /// With a shared store, a hold this instance knows, live and not past its expiry, is released as
    /// memory has it, without reading it from the store first (that read was a third of the database's
    /// CPU a hold + release). If another
    /// instance changed the hold meanwhile, the store refuses the change (each freed seat must be the
    /// hold's, and an ended hold keep none: migration 8), the show is reloaded, and the release is done
    /// again the careful way. nil: not such a hold.
    func releaseAsKnown(_ token: String) throws(Refusal) -> CommitTicket? {
        try locked { (m: Memory) throws(Refusal) -> CommitTicket? in
            guard let showID = m.holdShow[token], !m.isStale(showID), let state = m.shows[showID], let hold = state.holds[token],
                hold.record.expiresAt > clock()
            else { return nil }
            try Self.refuseWhilePaying(hold)
            let ticket = try end(hold, as: .released, in: state, m)
            metrics.count("holds_released")
            return ticket
        }
    }

    /// Releases the hold as the store has it (read first when the store is shared).
    func releaseAsStored(_ token: String) throws(Refusal) -> CommitTicket {
        let snapshot = try readHold(tokenDigest: token)
        return try lockedForHold(token) { (m: Memory) throws(Refusal) -> CommitTicket in
            let (state, hold) = try activeHold(token, snapshot: snapshot, in: m)
            try Self.refuseWhilePaying(hold)
            let ticket = try end(hold, as: .released, in: state, m)
            metrics.count("holds_released")
            return ticket
        }
    }

    /// Extends the hold once by the show's hold time (from now).
    public func extendHold(token: String) throws(Refusal) -> HoldView {
        let (result, ticket) = try beginExtendHold(token: token)
        if let ticket { try wait(ticket) }
        return result
    }

    package func beginExtendHold(token: String) throws(Refusal) -> (HoldView, CommitTicket?) {
        let plain = token, token = Secrets.tokenDigest(plain)
        let snapshot = try readHold(tokenDigest: token)
        return try lockedForHold(token) { (m: Memory) throws(Refusal) -> (HoldView, CommitTicket?) in
            let (state, hold) = try activeHold(token, snapshot: snapshot, in: m)
            try Self.refuseWhilePaying(hold)
            guard !hold.record.extended else { throw Refusal(.alreadyExtended, detail: "a hold can be extended once") }
            var record = hold.record
            record.extended = true
            record.expiresAt = max(record.expiresAt, clock() + Int64(state.record.holdSeconds) * 1000)
            let ticket = try apply(state, in: m, changes: [], holds: [record], log: LogEntry(action: "extend", holdID: record.id))
            let updated = ActiveHold(record: record, seats: hold.seats)
            state.holds[token] = updated
            return (view(updated, in: state, token: plain), ticket)
        }
    }

    /// Sells the hold's seats under `orderRef`, durably (answered once the log is flushed, one flush
    /// shared by the batch). Confirming again with the same order is answered as before; a retried
    /// request with the same `Idempotency-Key` too.
    public func confirmHold(token: String, orderRef: String, idempotency: IdempotentRequest<HoldView>?) throws(Refusal) -> HoldOutcome {
        let (outcome, ticket) = try beginConfirmHold(token: token, orderRef: orderRef, idempotency: idempotency)
        if let ticket { try wait(ticket) }
        return outcome
    }

    /// `uniqueOrder`: the reference may name no other order (a partner's own order number: the same
    /// number confirms the same hold once, another hold under it is a 409).
    package func beginConfirmHold(
        token plain: String, orderRef: String, idempotency: IdempotentRequest<HoldView>?, payments: [PaymentRecord] = [], uniqueOrder: Bool = false,
        attendees: [AttendeeInput] = []
    ) throws(Refusal) -> (
        HoldOutcome, CommitTicket?
    ) {
        let token = Secrets.tokenDigest(plain)
        let snapshot = try readHold(tokenDigest: token), stored = try storedAnswer(idempotency, show: snapshot?.read?.record.showID)
        let prepared = try prepareAttendees(attendees, forHold: token, snapshot: snapshot)
        var existing = false
        if uniqueOrder { do { existing = !(try store.orders(orderRef: orderRef)).isEmpty } catch { throw Self.storeRefusal(error) } }
        let confirmedBefore: Refusal
        do throws(Refusal) {
            return try lockedForHold(token) { (m: Memory) throws(Refusal) -> (HoldOutcome, CommitTicket?) in
                if let body = try replay(idempotency, stored: stored, in: m) { return (.replayed(body: body), nil) }
                let (state, hold) = try activeHold(token, snapshot: snapshot, in: m)
                try Self.refuseWhilePaying(hold)
                if uniqueOrder {
                    // This hold is live, so an order under the reference is another hold's.
                    let pending = m.shows.values.contains { s in s.holds.values.contains { $0.record.orderRef == orderRef } }
                    if existing || pending || m.recentOrders.contains(orderRef) {
                        throw Refusal(.orderExists, detail: "order \(orderRef) is another hold's: an external order id names one order")
                    }
                    m.recentOrders.insert(orderRef)
                }
                return try confirm(
                    hold, in: state, m, orderRef: orderRef, idempotency: idempotency, token: plain, payments: payments, attendees: prepared)
            }
        } catch  where error.reason == .holdConfirmed {
            confirmedBefore = error
        }
        // Confirmed before: the same order gets the same answer, another order a conflict. The hold and
        // its seats are read outside the lock (this read took every claim of the show under it).
        let read: (record: HoldRecord, seats: [Int])?
        do { read = try store.holdWithSeats(tokenDigest: token) } catch { throw Self.storeRefusal(error) }
        guard let (record, seats) = read, record.orderRef == orderRef else { throw confirmedBefore }
        return try locked { (m: Memory) throws(Refusal) -> (HoldOutcome, CommitTicket?) in
            guard let showState = m.shows[record.showID] else { throw confirmedBefore }
            return (.done(view(ActiveHold(record: record, seats: seats.sorted()), in: showState, token: plain)), nil)
        }
    }

    /// Refuses an admission that has a live hold in the show (one hold at a time) or has bought already
    /// (one purchase): for a new hold and for a buyer's exchange into the show alike. Called under the lock.
    /// - Complexity: O(1) (a scan of the show's live holds was O(n) in a rush).
    func checkAdmissionFree(_ admission: String, in state: ShowState) throws(Refusal) {
        if let digest = state.holdByAdmission[admission], state.holds[digest]?.record.admission == admission {
            throw Refusal(
                .admissionInUse,
                detail: "this admission already holds seats for show \(state.record.id): change that hold's seats, or release or confirm it first")
        }
        if state.spentAdmissions.contains(admission) { throw Self.admissionSpent(show: state.record.id) }
    }

    /// Sells a live hold's seats under `orderRef`. Called under the lock.
    func confirm(
        _ hold: ActiveHold, in state: ShowState, _ m: Memory, orderRef: String, idempotency: IdempotentRequest<HoldView>?, token plain: String,
        payments: [PaymentRecord] = [], refunds: [PaymentRefundRecord] = [], attendees given: [PreparedAttendee] = []
    ) throws(Refusal) -> (HoldOutcome, CommitTicket?) {
        var record = hold.record
        record.state = .confirmed
        record.orderRef = orderRef
        // A real-name show's seats are sold only with their attendees: given now, or before.
        var rebound: (delete: [Int], insert: [Claim]) = ([], []), wanted: [SeatIndex: SeatAttendee]?
        if state.realName.isOn || !given.isEmpty {
            let current = state.attendees(of: hold.seats)
            let after = try attendeesAfter(given, seats: hold.seats, current: current, in: state, m: m)
            if let missing = missingAttendees(hold.seats, in: state, attendees: after) { throw missing }
            rebound = Self.rebound(from: current, to: after, seats: hold.seats, holdID: record.id, status: .sold)
            wanted = after
        }
        let confirmed = ActiveHold(record: record, seats: hold.seats)
        var fresh = view(confirmed, in: state, token: plain, version: state.availability.version, attendees: wanted)
        fresh.version += 1
        let kept = idempotency.map { $0.kept(fresh) }
        let ticket = try apply(
            state, in: m, changes: hold.seats.map { SeatChange(seat: $0, status: .sold) }, insert: rebound.insert, delete: rebound.delete,
            sell: hold.seats.filter { !rebound.delete.contains($0) }, holds: [record], durable: true,
            idempotency: kept, payments: payments, paymentRefunds: refunds, log: LogEntry(action: "confirm", holdID: record.id, orderRef: orderRef))
        for (seat, a) in wanted ?? [:] { state.bind(seat, a) }
        let told = Self.namingSeats(ticket, wanted ?? [:], layout: state.layout, show: state.record.id)
        m.ended(record, in: state)
        if let admission = record.admission { state.spentAdmissions.insert(admission) }
        metrics.count("confirmations")
        return (.done(view(confirmed, in: state, token: plain)), told)
    }

    func expire(_ hold: ActiveHold, in state: ShowState, _ m: Memory) throws(Refusal) -> CommitTicket {
        let ticket = try end(hold, as: .expired, in: state, m)
        metrics.count("holds_expired")
        return ticket
    }

    /// Ends a live hold (a buyer's or a reservation) with its seats returned to sale, and forgets it.
    /// Called under the lock.
    func end(
        _ hold: ActiveHold, as ending: HoldState, in state: ShowState, _ m: Memory, by operatorName: String? = nil, reason: String? = nil,
        payments: [PaymentRecord] = []
    ) throws(Refusal) -> CommitTicket {
        var record = hold.record
        record.state = ending
        let log = LogEntry(action: ending == .expired ? "expire" : "release", holdID: record.id, operatorName: operatorName, reason: reason)
        // A partner's hold gives its seats back to its channel while the channel lives (the claims move back).
        if let channel = channelTakingBack(record, in: state) {
            let ticket = try apply(
                state, in: m, changes: hold.seats.map { SeatChange(seat: $0, status: .blocked) },
                insert: hold.seats.map {
                    Claim(seat: $0, status: .blocked, holdID: channel.record.id)
                }, delete: hold.seats, holds: [record, channel.record], durable: !payments.isEmpty, payments: payments, log: log)
            state.holds[channel.record.tokenDigest] = ActiveHold(record: channel.record, seats: (channel.seats + hold.seats).sorted())
            m.ended(record, in: state)
            return ticket
        }
        // A partner's channel ending: the seats the show's waitlist wants go to its pool, not to the public.
        let pooled = Self.isChannel(record) && !Self.isWaitlistPool(record) ? waitlistPool(for: hold.seats, in: state, now: clock()) : nil
        let toPool = Set(pooled?.seats ?? [])
        let ticket = try apply(
            state, in: m, changes: hold.seats.map { SeatChange(seat: $0, status: toPool.contains($0) ? .blocked : .available) },
            insert: (pooled?.seats ?? []).map { Claim(seat: $0, status: .blocked, holdID: pooled!.record.id) }, delete: hold.seats,
            holds: [record] + (pooled.map { [$0.record] } ?? []), durable: !payments.isEmpty, payments: payments, log: log)
        m.ended(record, in: state)
        if let pooled { keep(pooled, in: state, m) }
        return ticket
    }

    /// Whether an expired hold waits for its provider's word on its payment: a buyer's hold being paid
    /// for, within `paymentGrace` of its window's end, on a server that asks providers.
    func awaitsItsProvider(_ hold: ActiveHold, now: Int64) -> Bool {
        hold.record.kind == .buyer && hold.record.payment != nil && now < hold.record.expiresAt + Self.paymentGrace
            && paymentQuery.withLock { $0 != nil }
    }

    /// Releases every hold past its expiry and waits for the store; returns how many. Run by the server
    /// every half second.
    @discardableResult
    public func expireDue() -> Int {
        // Shows a failed write left stale are retried here too (outside the lock).
        if locked({ m in !m.staleShows.isEmpty }) { reloadStaleShows() }
        let due = dueHoldsInStore(now: clock())
        let asks = paymentQuery.withLock { $0 != nil }
        let (expired, paying) = locked { m in
            let now = clock()
            adopt(due, in: m)
            var tickets: [CommitTicket] = [], paying: [(token: String, payment: String)] = []
            for state in m.shows.values {
                for hold in state.holds.values where hold.record.expiresAt <= now {
                    // A hold being paid for ends only once its provider has said it was not paid (or
                    // could not say for `paymentGrace`: a payment after that is refunded when it comes).
                    if asks, awaitsItsProvider(hold, now: now), let payment = hold.record.payment {
                        paying.append((hold.record.tokenDigest, payment))
                        continue
                    }
                    // Refused only when the writer has stopped (the server is stopping): nothing to expire then.
                    if let t = try? expire(hold, in: state, m) { tickets.append(t) }
                }
            }
            return (tickets, paying)
        }
        let tickets = expired + paying.compactMap { settlePaying(token: $0.token, payment: $0.payment) }
        for t in tickets {
            // A refused expiry marked its show stale (reloaded on the next pass); a failing store is said.
            do { try t.wait() } catch  where !StoreError(error).isConflict { storeTrouble("expiring a hold", error) } catch {}
        }
        return tickets.count
    }
}
