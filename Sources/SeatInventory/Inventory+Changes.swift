#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SeatDomain
import SeatJSON
import SeatMap

/// What every change shares: kept idempotency answers, resolving and checking seats, rendering a hold,
/// reserving a change and queueing it for the store.
/// One of two things (a kept answer, or what to build a fresh one from).
enum Either<First, Second>: Sendable where First: Sendable, Second: Sendable {
    case first(First)
    case second(Second)
}

extension Inventory {
    /// A new record's random parts, both behind the time's prefix: 16 hex digits for its id, 32 for its
    /// token (128 bits: unguessable), from one draw of 24 bytes of the kernel's generator (`getentropy`:
    /// one `getrandom` call; a draw a word was three a hold).
    static func randomIDAndToken(prefix: String) -> (id: String, token: String) {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        #if canImport(Glibc)
        let drawn = withUnsafeMutableBytes(of: &words) { getentropy($0.baseAddress, $0.count) == 0 ? $0.count : 0 }
        #else
        let drawn = 0
        #endif
        if drawn != MemoryLayout.size(ofValue: words) {
            var system = SystemRandomNumberGenerator()
            words = (system.next(), system.next(), system.next())
        }
        return (prefix + hex(words.0), prefix + hex(words.1, words.2))
    }

    /// One or two words as lowercase hex, 16 digits each (the low nibble first).
    private static func hex(_ first: UInt64, _ second: UInt64? = nil) -> String {
        String(unsafeUninitializedCapacity: 32) { out in
            func put(_ word: UInt64, at start: Int) {
                var w = word
                for d in 0..<16 {
                    let nibble = UInt8(w & 0xF)
                    out[start + d] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
                    w >>= 4
                }
            }
            put(first, at: 0)
            guard let second else { return 16 }
            put(second, at: 16)
            return 32
        }
    }

    /// 12 hex digits of the time in milliseconds, in front of a hold's id and token. Keys made now sort
    /// after keys made before, so the store's indexes on them grow at their end: a batch of holds dirties
    /// a few index pages instead of one random page per hold (that write amplification, not the SQL,
    /// was most of the writer's time). The capability is the 128 random bits after it.
    /// What a new record of `show` is named with: its shard's name and a dot when the store has shards
    /// (`east.`: any instance routes the token or id to that shard), then the time's prefix.
    func idPrefix(show: String, _ milliseconds: Int64) -> String {
        (placement?.idTag(show: show) ?? "") + Self.timePrefix(milliseconds)
    }

    static func timePrefix(_ milliseconds: Int64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 12)
        var value = UInt64(max(milliseconds, 0))
        for k in stride(from: 11, through: 0, by: -1) { out[k] = digits[Int(value & 0xF)]; value >>= 4 }
        return String(decoding: out, as: UTF8.self)
    }

    /// The kept answer for a request's key as the store has it, read before taking the lock (a store
    /// round trip must not hold every other request up).
    /// `show`: the show whose change would have kept it (a store of shards reads that show's alone).
    func storedAnswer<View>(_ idempotency: IdempotentRequest<View>?, show: String? = nil) throws(Refusal) -> StoredResponse? {
        guard let idempotency else { return nil }
        do { return try store.storedResponse(key: idempotency.key, show: show) } catch { throw Self.storeRefusal(error) }
    }

    /// Answers from the kept response when the key was seen (still queued, or `stored`); refuses a key
    /// reused for another request. Called under the lock.
    func replay<View>(_ idempotency: IdempotentRequest<View>?, stored fromStore: StoredResponse?, in m: Memory) throws(Refusal) -> [UInt8]? {
        guard let idempotency else { return nil }
        let stored = m.pendingIdempotency[idempotency.key] ?? m.recentIdempotency[idempotency.key] ?? fromStore
        guard let stored else { return nil }
        guard stored.requestFingerprint == idempotency.fingerprint else {
            throw Refusal(.idempotencyKeyReused, detail: "this Idempotency-Key was used for a different request")
        }
        guard let body = idempotency.open(stored.body) else {
            throw Refusal(.idempotencyKeyReused, detail: "the answer kept for this Idempotency-Key cannot be read with it")
        }
        return body
    }

    /// A failing store as the client hears it: worth retrying, and never its cause (a PostgreSQL outage's
    /// message names the database's host and port; an anonymous buyer once read them in the 503).
    package static func storeRefusal(_ error: Error) -> Refusal {
        switch StoreError(error) {
        case .closed: Refusal(.storeUnavailable, detail: "the server is shutting down; try again shortly")
        case let e where e.isIdentityInUse:
            Refusal(.idAlreadyUsed, detail: "a document of this request already has a ticket or a held seat for the show (one a show)")
        case let e where e.isAdmissionInUse:
            Refusal(
                .admissionInUse,
                detail: "this admission already holds seats or has bought with them: change that hold's seats, or join the waiting room again to buy more")
        case .conflict(let message): Refusal(.seatsTaken, detail: "a seat was taken by a concurrent change (\(message)); reload the availability")
        case .changedElsewhere: Refusal(.showChanged, detail: "the show was changed elsewhere at the same moment; nothing was written: reload and try again")
        case .unavailable: Refusal(.storeUnavailable, detail: "the seat store cannot be reached right now; try again shortly")
        }
    }

    /// An admission that bought already (its hold confirmed, or an exchange made with it).
    static func admissionSpent(show id: String) -> Refusal {
        Refusal(
            .admissionSpent,
            detail: "this admission has bought tickets for show \(id) already: one admission is one purchase; join the waiting room again to buy more")
    }

    /// A show whose shard cannot be reached: a 503 at once (its database is not waited on).
    static func shardDown(show id: String, _ outage: ShardOutage) -> Refusal {
        Refusal(.storeUnavailable, detail: "show \(id) is on shard \(outage.shard), which cannot be reached right now; try again shortly")
    }

    /// The show's state, under the lock; a stale show (being reloaded from the store) is a 503 to retry.
    func state(forShow id: String, in m: Memory) throws(Refusal) -> ShowState {
        if let outage = placement?.outage(show: id) { throw Self.shardDown(show: id, outage) }
        if m.isStale(id) {
            var reloading = Refusal(.storeUnavailable, detail: "show \(id) is being reloaded from the store; try again shortly")
            reloading.retryInside = true
            throw reloading
        }
        guard let s = m.shows[id] else { throw noSuchShow(id) }
        return s
    }

    /// A show this instance does not know: not found, unless a shard cannot be reached, where it may
    /// be (an instance started while the shard was down has not read its shows yet): a 503 to retry then.
    public func noSuchShow(_ id: String) -> Refusal {
        guard let down = placement?.unreachableShards, !down.isEmpty else { return Refusal(.notFound, detail: "no show \(id)") }
        let shards = down.count == 1 ? "shard \(down[0])" : "shards \(down.joined(separator: ", "))"
        return Refusal(
            .storeUnavailable,
            detail: "show \(id) is not on the shards that answer; \(shards) cannot be reached right now, and it may be there; try again shortly")
    }

    /// Seat ids to indices; every unknown id is named.
    func resolve(_ ids: [String], in layout: VenueLayout) throws(Refusal) -> [SeatIndex] {
        var out: [SeatIndex] = [], unknown: [String] = []
        var seen = Set<SeatIndex>()
        for id in ids {
            if let i = layout.index(ofSeatID: id) { if seen.insert(i).inserted { out.append(i) } } else { unknown.append(id) }
        }
        if !unknown.isEmpty {
            throw Refusal(
                .unknownSeats, detail: "no seat \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")) in venue \(layout.id)",
                details: [.seats(unknown)])
        }
        return out
    }

    /// Seats someone else holds or bought: a 409 naming each with its status.
    func checkFree(_ seats: [SeatIndex], in state: ShowState, own: Set<SeatIndex>) throws(Refusal) {
        let taken = seats.filter { !own.contains($0) && state.availability[$0] != .available }
        guard !taken.isEmpty else { return }
        metrics.count("hold_conflicts")
        let layout = state.layout
        throw Refusal(
            .seatsTaken,
            detail: taken.map { "\(layout.seatID($0)) is \(state.availability[$0].name)" }.joined(separator: "; "),
            details: [.conflicts(taken.map { (layout.seatID($0), state.availability[$0].name) }, version: state.availability.version)])
    }

    /// The show's rules on the hold's resulting seats: a 422 naming the rule, the seats and the message.
    func checkRules(_ seats: [SeatIndex], in state: ShowState, own: Set<SeatIndex>, wheelchair: Bool) throws(Refusal) {
        let violations = state.policy.violations(
            for: seats, in: state.layout, availability: state.availability,
            context: SelectionContext(wheelchairRequested: wheelchair, ownHeld: own))
        guard let first = violations.first else { return }
        metrics.count("rule_violations")
        throw Refusal(
            .ruleViolation, detail: "\(first.rule.rawValue): \(first.english)", details: [Self.violations(violations, in: state.layout)])
    }

    /// The rules broken, for a refusal: each with its seats and its message in both languages.
    static func violations(_ list: [SelectionViolation], in layout: VenueLayout) -> Refusal.Detail {
        .violations(list.map { v in (v.rule.rawValue, v.seats.map(layout.seatID), v.chinese, v.english) })
    }

    func view(_ hold: ActiveHold, in state: ShowState, token: String) -> HoldView {
        view(hold, in: state, token: token, version: state.availability.version)
    }

    /// Sales close when the show starts: no new hold and no seat added to one. (A hold made before the
    /// start may still be confirmed until it expires: its seats were reserved while sales were open.)
    func checkOnSale(_ state: ShowState) throws(Refusal) {
        try checkNotCancelled(state)
        if !state.record.onSale {
            throw Refusal(.offSale, detail: "show \(state.record.id) is not on sale at the moment; its seats cannot be held")
        }
        guard let starts = state.startsAtMilliseconds, clock() >= starts else { return }
        throw Refusal(
            .showStarted,
            detail: "show \(state.record.id) started at \(state.record.startsAt); its seats can no longer be held")
    }

    /// The hold as the API shows it, with the token the client gave (the inventory keeps only its
    /// digest). Under the lock: a price change replaces the show's tables.
    func view(_ hold: ActiveHold, in state: ShowState, token: String, version: UInt64, attendees: [SeatIndex: SeatAttendee]? = nil) -> HoldView {
        var v = Self.view(hold, layout: state.layout, revisions: state.revisions, token: token, version: version)
        v.attendees = attendees.map { Self.attendeeViews(hold.seats, $0, layout: state.layout) } ?? attendeeViews(hold.seats, in: state)
        return v
    }

    /// The hold as the API shows it from values only (the show's layout and price tables, copied under
    /// the lock): what the answer to a new hold is drawn from after the lock.
    static func view(_ hold: ActiveHold, layout: VenueLayout, revisions: PriceRevisions, token: String, version: UInt64) -> HoldView {
        HoldView(
            token: token, holdID: hold.record.id, showID: hold.record.showID, seatIDs: hold.seats.map { layout.seatID($0) },
            total: revisions.total(of: hold.seats, HoldPricing(stored: hold.record.prices)),
            currency: revisions.current.table.currency, expiresAt: hold.record.expiresAt, extended: hold.record.extended,
            version: version, state: hold.record.state, orderRef: hold.record.orderRef,
            payment: hold.record.kind == .buyer ? hold.record.payment : nil)
    }

    /// Reserves one change in memory and queues it for the store; the caller waits on the ticket
    /// (outside the lock) before answering.
    func apply(
        _ state: ShowState, in m: Memory, changes: [SeatChange], insert: [Claim] = [], delete: [Int] = [], sell: [Int] = [],
        holds: [HoldRecord], durable: Bool = false, idempotency: StoredResponse? = nil, refunds: [RefundRecord] = [], show: ShowRecord? = nil,
        payments: [PaymentRecord] = [], paymentRefunds: [PaymentRefundRecord] = [], log: LogEntry
    ) throws(Refusal) -> CommitTicket {
        var change = stage(
            state, in: m, changes: changes, insert: insert, delete: delete, sell: sell, holds: holds, durable: durable, idempotency: idempotency,
            refunds: refunds, show: show, log: log)
        change.payments = payments
        change.paymentRefunds = paymentRefunds
        return writer.enqueue(change)
    }

    /// `apply`'s change made in memory, not yet queued: the caller queues it (with others written all or
    /// none, `BatchWriter.enqueue(together:)`). Called under the lock.
    func stage(
        _ state: ShowState, in m: Memory, changes: [SeatChange], insert: [Claim] = [], delete: [Int] = [], sell: [Int] = [],
        holds: [HoldRecord], durable: Bool = false, idempotency: StoredResponse? = nil, refunds: [RefundRecord] = [], show: ShowRecord? = nil,
        log: LogEntry
    ) -> StoreCommit {
        let version = state.availability.version + 1
        let delta = AvailabilityDelta(fromVersion: version - 1, toVersion: version, changes: changes).encoded()
        let commit = StoreCommit(
            showID: state.record.id, version: version, changes: changes, insert: insert, delete: delete, sell: sell,
            holds: holds, delta: delta, durable: durable, idempotency: idempotency, refunds: refunds, show: show, log: log,
            showBase: show == nil ? nil : state.record)
        if changes.contains(where: { $0.status != .sold && state.availability[$0.seat] == .sold }) { state.soldFreedVersion = version }
        // A seat whose claim goes loses its attendee (a caller binding new ones does so after this).
        if !state.attendees.isEmpty {
            for seat in delete { state.unbind(seat) }
            for r in refunds { state.unbind(r.seat) }
        }
        for c in changes { state.availability.setStatus(c.status, for: c.seat) }
        if mode.followsOthers { state.reserve(changes) }
        if show != nil { state.pendingShowEdits += 1 }
        state.availability.commit(version: version)
        state.setVersion(version)
        if let idempotency { m.pendingIdempotency[idempotency.key] = idempotency }
        return commit
    }

    /// Waits until the change is in the store.
    package func wait(_ ticket: CommitTicket) throws(Refusal) {
        do { try ticket.wait() } catch { throw Self.refusal(forCommitError: error) }
    }

    /// What a failed commit means to the client.
    /// A retried change (`CommitTicket.retried`) may end with the retry's own refusal.
    package static func refusal(forCommitError error: Error) -> Refusal { (error as? Refusal) ?? storeRefusal(error) }

    /// Holds `seatIDs` for a new buyer: all or none; 201 with an unguessable token.
}
