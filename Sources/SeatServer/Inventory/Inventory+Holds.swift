import Foundation
import SeatMap

/// What the API returns for a hold.
public struct HoldView: Sendable {
    public var token: String
    public var holdID: String
    public var showID: String
    public var seatIDs: [String]
    public var total: String
    public var currency: String
    public var expiresAt: Int64
    public var extended: Bool
    public var version: UInt64
    public var state: HoldState
    public var orderRef: String?
}

/// An `Idempotency-Key` and what the request asked, and how to render the answer to keep for a retry.
public struct IdempotentRequest: Sendable {
    public var key: String
    public var fingerprint: String
    public var render: @Sendable (HoldView) -> (status: Int, body: [UInt8])
}

/// The outcome of an operation: fresh, or the kept answer to an earlier request with the same key.
public enum HoldOutcome: Sendable {
    case done(HoldView)
    case replayed(status: Int, body: [UInt8])
}

extension Inventory {
    /// `bytes` random bytes (a multiple of 8) from the system's generator, as lowercase hex.
    static func randomHex(bytes: Int) -> String {
        var rng = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes * 2)
        for _ in 0..<(bytes / 8) {
            var word = rng.next()
            for _ in 0..<16 { out.append(digits[Int(word & 0xF)]); word >>= 4 }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Answers from the kept response when the key was seen; refuses a key reused for another request.
    func replay(_ idempotency: IdempotentRequest?) throws(Problem) -> HoldOutcome? {
        guard let idempotency else { return nil }
        var stored = pendingIdempotency[idempotency.key]
        if stored == nil {
            do { stored = try store.storedResponse(key: idempotency.key) } catch { throw Self.storeProblem(error) }
        }
        guard let stored else { return nil }
        guard stored.requestFingerprint == idempotency.fingerprint else {
            throw Problem(422, "idempotency-key-reused", "Idempotency-Key reused", detail: "Idempotency-Key \(idempotency.key) was used for a different request")
        }
        return .replayed(status: stored.status, body: stored.body)
    }

    static func storeProblem(_ error: Error) -> Problem {
        Problem(503, "store-unavailable", "Storage unavailable", detail: "the store failed: \(error)", headers: [("Retry-After", "1")])
    }

    func state(forShow id: String) throws(Problem) -> ShowState {
        guard let s = shows[id] else { throw Problem.notFound("no show \(id)") }
        return s
    }

    /// Seat ids to indices; every unknown id is named.
    func resolve(_ ids: [String], in layout: VenueLayout) throws(Problem) -> [SeatIndex] {
        var out: [SeatIndex] = [], unknown: [String] = []
        var seen = Set<SeatIndex>()
        for id in ids {
            if let i = layout.index(ofSeatID: id) { if seen.insert(i).inserted { out.append(i) } } else { unknown.append(id) }
        }
        if !unknown.isEmpty {
            throw Problem(422, "unknown-seats", "Unknown seats", detail: "no seat \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")) in venue \(layout.id)",
                          extensions: [("seats", "[" + unknown.map { JSONWriter.quoted($0) }.joined(separator: ",") + "]")])
        }
        return out
    }

    /// Seats someone else holds or bought: a 409 naming each with its status.
    func checkFree(_ seats: [SeatIndex], in state: ShowState, own: Set<SeatIndex>) throws(Problem) {
        let taken = seats.filter { !own.contains($0) && state.availability[$0] != .available }
        guard !taken.isEmpty else { return }
        metrics.count("hold_conflicts")
        let layout = state.layout
        let list = "[" + taken.map { "{\"seat\":\(JSONWriter.quoted(layout.seatID($0))),\"status\":\"\(state.availability[$0].name)\"}" }.joined(separator: ",") + "]"
        throw Problem(409, "seats-taken", "Seats taken",
                      detail: taken.map { "\(layout.seatID($0)) is \(state.availability[$0].name)" }.joined(separator: "; "),
                      extensions: [("conflicts", list), ("version", String(state.availability.version))])
    }

    /// The show's rules on the hold's resulting seats: a 422 naming the rule, the seats and the message.
    func checkRules(_ seats: [SeatIndex], in state: ShowState, own: Set<SeatIndex>, wheelchair: Bool) throws(Problem) {
        let violations = state.policy.violations(for: seats, in: state.layout, availability: state.availability,
                                                 context: SelectionContext(wheelchairRequested: wheelchair, ownHeld: own))
        guard let first = violations.first else { return }
        metrics.count("rule_violations")
        let layout = state.layout
        let list = "[" + violations.map { v in
            "{\"rule\":\"\(v.rule.rawValue)\",\"seats\":[\(v.seats.map { JSONWriter.quoted(layout.seatID($0)) }.joined(separator: ","))],"
                + "\"message\":{\"zh\":\(JSONWriter.quoted(v.chinese)),\"en\":\(JSONWriter.quoted(v.english))}}"
        }.joined(separator: ",") + "]"
        throw Problem(422, "rule-violation", "Selection rule", detail: "\(first.rule.rawValue): \(first.english)", extensions: [("violations", list)])
    }

    func view(_ hold: ActiveHold, in state: ShowState) -> HoldView {
        HoldView(token: hold.record.token, holdID: hold.record.id, showID: state.record.id, seatIDs: hold.seats.map { state.layout.seatID($0) },
                 total: state.prices.table.amountString(state.prices.total(of: hold.seats)),
                 currency: state.prices.table.currency, expiresAt: hold.record.expiresAt, extended: hold.record.extended,
                 version: state.availability.version, state: hold.record.state, orderRef: hold.record.orderRef)
    }

    /// Reserves one change in memory and queues it for the store; the caller waits on the ticket
    /// (outside the lock) before answering.
    func apply(_ state: ShowState, changes: [SeatChange], insert: [Claim] = [], delete: [Int] = [], sell: [Int] = [],
               holds: [HoldRecord], durable: Bool = false, idempotency: StoredResponse? = nil) throws(Problem) -> CommitTicket {
        guard let writer else { throw Self.storeProblem(DatabaseError(code: 21, message: "the store is closed")) }
        let version = state.availability.version + 1
        let delta = AvailabilityDelta(fromVersion: version - 1, toVersion: version, changes: changes).encoded()
        let commit = StoreCommit(showID: state.record.id, version: version, changes: changes, insert: insert, delete: delete, sell: sell,
                                 holds: holds, delta: delta, durable: durable, idempotency: idempotency)
        for c in changes { state.availability.setStatus(c.status, for: c.seat) }
        state.availability.commit(version: version)
        state.record.version = version
        if let idempotency { pendingIdempotency[idempotency.key] = idempotency }
        return writer.enqueue(commit)
    }

    /// Waits until the change is in the store.
    func wait(_ ticket: CommitTicket) throws(Problem) {
        do { try ticket.wait() } catch { throw Self.problem(forCommitError: error) }
    }

    /// What a failed commit means to the client.
    static func problem(forCommitError error: Error) -> Problem {
        if let e = error as? DatabaseError, e.isConstraint {
            return Problem(409, "seats-taken", "Seats taken", detail: "a seat was taken by a concurrent change (\(e.message)); reload the availability")
        }
        return storeProblem(error)
    }

    /// Holds `seatIDs` for a new buyer: all or none; 201 with an unguessable token.
    public func createHold(show showID: String, seatIDs: [String], wheelchair: Bool, idempotency: IdempotentRequest?) throws(Problem) -> HoldOutcome {
        let (outcome, ticket) = try beginCreateHold(show: showID, seatIDs: seatIDs, wheelchair: wheelchair, idempotency: idempotency)
        if let ticket { try wait(ticket) }
        return outcome
    }

    /// `createHold` without waiting: the answer and the ticket to wait on (nil: nothing to commit).

    func beginCreateHold(show showID: String, seatIDs: [String], wheelchair: Bool, idempotency: IdempotentRequest?) throws(Problem) -> (HoldOutcome, CommitTicket?) {
        try locked { () throws(Problem) -> (HoldOutcome, CommitTicket?) in
            if let replayed = try replay(idempotency) { return (replayed, nil) }
            let state = try state(forShow: showID)
            guard !seatIDs.isEmpty else { throw Problem(422, "no-seats", "No seats", detail: "a hold needs at least one seat") }
            let seats = try resolve(seatIDs, in: state.layout).sorted()
            try checkFree(seats, in: state, own: [])
            try checkRules(seats, in: state, own: [], wheelchair: wheelchair)
            let now = clock()
            let record = HoldRecord(id: "h_" + Self.randomHex(bytes: 8), token: Self.randomHex(bytes: 16), showID: showID, state: .active,
                                    expiresAt: now + Int64(state.record.holdSeconds) * 1000, extended: false, orderRef: nil,
                                    wheelchair: wheelchair, createdAt: now)
            let hold = ActiveHold(record: record, seats: seats)
            var fresh = view(hold, in: state)
            fresh.version += 1
            let kept = idempotency.map { i in let (status, body) = i.render(fresh); return StoredResponse(key: i.key, requestFingerprint: i.fingerprint, status: status, body: body) }
            let ticket = try apply(state, changes: seats.map { SeatChange(seat: $0, status: .held) },
                                   insert: seats.map { Claim(seat: $0, status: .held, holdID: record.id) }, holds: [record], idempotency: kept)
            state.holds[record.token] = hold
            holdShow[record.token] = showID
            metrics.count("holds_created")
            return (.done(view(hold, in: state)), ticket)
        }
    }

    /// The live hold for a token, or a precise 404/410.
    func activeHold(_ token: String) throws(Problem) -> (ShowState, ActiveHold) {
        if let showID = holdShow[token], let state = shows[showID], let hold = state.holds[token] {
            if hold.record.expiresAt <= clock() {
                _ = try expire(hold, in: state)
                throw Problem(410, "hold-expired", "Hold expired", detail: "the hold expired and its seats were released")
            }
            return (state, hold)
        }
        let record: HoldRecord?
        do { record = try store.hold(token: token) } catch { throw Self.storeProblem(error) }
        switch record?.state {
        case .expired?: throw Problem(410, "hold-expired", "Hold expired", detail: "the hold expired and its seats were released")
        case .released?: throw Problem(410, "hold-released", "Hold released", detail: "the hold was released")
        case .confirmed?: throw Problem(409, "hold-confirmed", "Hold confirmed", detail: "the hold was confirmed as order \(record?.orderRef ?? "")")
        default: throw Problem.notFound("no hold with this token")
        }
    }

    public func hold(token: String) throws(Problem) -> HoldView {
        try locked { () throws(Problem) -> HoldView in
            let (state, hold) = try activeHold(token)
            return view(hold, in: state)
        }
    }

    /// Adds and removes seats atomically; the rules apply to the resulting set. Removing every seat
    /// releases the hold.
    public func modifyHold(token: String, add: [String], remove: [String]) throws(Problem) -> HoldView {
        let (result, ticket) = try beginModifyHold(token: token, add: add, remove: remove)
        if let ticket { try wait(ticket) }
        return result
    }

    func beginModifyHold(token: String, add: [String], remove: [String]) throws(Problem) -> (HoldView, CommitTicket?) {
        try locked { () throws(Problem) -> (HoldView, CommitTicket?) in
            let (state, hold) = try activeHold(token)
            let adding = try resolve(add, in: state.layout), removing = try resolve(remove, in: state.layout)
            let own = Set(hold.seats)
            let notHeld = removing.filter { !own.contains($0) }
            if !notHeld.isEmpty {
                throw Problem(422, "not-in-hold", "Seats not in the hold", detail: "not in this hold: \(notHeld.map { state.layout.seatID($0) }.joined(separator: ", "))")
            }
            let result = own.union(adding).subtracting(removing).sorted()
            try checkFree(adding, in: state, own: own)
            if !result.isEmpty { try checkRules(result, in: state, own: own, wheelchair: hold.record.wheelchair) }
            let added = result.filter { !own.contains($0) }, dropped = hold.seats.filter { !result.contains($0) }
            var record = hold.record
            if result.isEmpty { record.state = .released }
            let ticket = try apply(state, changes: added.map { SeatChange(seat: $0, status: .held) } + dropped.map { SeatChange(seat: $0, status: .available) },
                                   insert: added.map { Claim(seat: $0, status: .held, holdID: record.id) }, delete: dropped, holds: [record])
            let updated = ActiveHold(record: record, seats: result)
            if result.isEmpty { state.holds[token] = nil; holdShow[token] = nil; metrics.count("holds_released") } else { state.holds[token] = updated }
            return (view(updated, in: state), ticket)
        }
    }

    public func releaseHold(token: String) throws(Problem) {
        try wait(try beginReleaseHold(token: token))
    }

    func beginReleaseHold(token: String) throws(Problem) -> CommitTicket {
        try locked { () throws(Problem) -> CommitTicket in
            let (state, hold) = try activeHold(token)
            var record = hold.record
            record.state = .released
            let ticket = try apply(state, changes: hold.seats.map { SeatChange(seat: $0, status: .available) }, delete: hold.seats, holds: [record])
            state.holds[token] = nil
            holdShow[token] = nil
            metrics.count("holds_released")
            return ticket
        }
    }

    /// Extends the hold once by the show's hold time (from now).
    public func extendHold(token: String) throws(Problem) -> HoldView {
        let (result, ticket) = try beginExtendHold(token: token)
        if let ticket { try wait(ticket) }
        return result
    }

    func beginExtendHold(token: String) throws(Problem) -> (HoldView, CommitTicket?) {
        try locked { () throws(Problem) -> (HoldView, CommitTicket?) in
            let (state, hold) = try activeHold(token)
            guard !hold.record.extended else { throw Problem(409, "already-extended", "Already extended", detail: "a hold can be extended once") }
            var record = hold.record
            record.extended = true
            record.expiresAt = max(record.expiresAt, clock() + Int64(state.record.holdSeconds) * 1000)
            let ticket = try apply(state, changes: [], holds: [record])
            let updated = ActiveHold(record: record, seats: hold.seats)
            state.holds[token] = updated
            return (view(updated, in: state), ticket)
        }
    }

    /// Sells the hold's seats under `orderRef`, durably (answered once the log is flushed, one flush
    /// shared by the batch). Confirming again with the same order is answered as before; a retried
    /// request with the same `Idempotency-Key` too.
    public func confirmHold(token: String, orderRef: String, idempotency: IdempotentRequest?) throws(Problem) -> HoldOutcome {
        let (outcome, ticket) = try beginConfirmHold(token: token, orderRef: orderRef, idempotency: idempotency)
        if let ticket { try wait(ticket) }
        return outcome
    }

    func beginConfirmHold(token: String, orderRef: String, idempotency: IdempotentRequest?) throws(Problem) -> (HoldOutcome, CommitTicket?) {
        try locked { () throws(Problem) -> (HoldOutcome, CommitTicket?) in
            if let replayed = try replay(idempotency) { return (replayed, nil) }
            let state: ShowState, hold: ActiveHold
            do throws(Problem) { (state, hold) = try activeHold(token) } catch where error.slug == "hold-confirmed" {
                // Confirmed before: the same order gets the same answer, another order a conflict.
                guard let record = try? store.hold(token: token), let showState = shows[record.showID], record.orderRef == orderRef else { throw error }
                let seats = ((try? store.claims(show: record.showID)) ?? []).filter { $0.holdID == record.id }.map(\.seat).sorted()
                return (.done(view(ActiveHold(record: record, seats: seats), in: showState)), nil)
            }
            var record = hold.record
            record.state = .confirmed
            record.orderRef = orderRef
            let confirmed = ActiveHold(record: record, seats: hold.seats)
            var fresh = view(confirmed, in: state)
            fresh.version += 1
            let kept = idempotency.map { i in let (status, body) = i.render(fresh); return StoredResponse(key: i.key, requestFingerprint: i.fingerprint, status: status, body: body) }
            let ticket = try apply(state, changes: hold.seats.map { SeatChange(seat: $0, status: .sold) }, sell: hold.seats, holds: [record], durable: true, idempotency: kept)
            state.holds[token] = nil
            holdShow[token] = nil
            metrics.count("confirmations")
            return (.done(view(confirmed, in: state)), ticket)
        }
    }

    func expire(_ hold: ActiveHold, in state: ShowState) throws(Problem) -> CommitTicket {
        var record = hold.record
        record.state = .expired
        let ticket = try apply(state, changes: hold.seats.map { SeatChange(seat: $0, status: .available) }, delete: hold.seats, holds: [record])
        state.holds[record.token] = nil
        holdShow[record.token] = nil
        metrics.count("holds_expired")
        return ticket
    }

    /// Releases every hold past its expiry and waits for the store; returns how many. Run by the server
    /// every half second.
    @discardableResult
    public func expireDue() -> Int {
        let tickets = locked {
            let now = clock()
            var tickets: [CommitTicket] = []
            for state in shows.values {
                for hold in state.holds.values where hold.record.expiresAt <= now {
                    if let t = try? expire(hold, in: state) { tickets.append(t) }
                }
            }
            return tickets
        }
        for t in tickets { try? t.wait() }
        return tickets.count
    }
}

extension JSONWriter {
    /// A JSON string literal for `s`.
    public static func quoted(_ s: String) -> String {
        var w = JSONWriter()
        w.string(s)
        return w.text
    }
}
