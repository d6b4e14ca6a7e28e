import Foundation
import SeatDomain
import SeatMap
import SeatSecrets

/// A box-office reservation as the API shows it (to operators only: buyers see its seats as not for sale).
public struct ReservationView: Sendable {
    public var id: String
    public var showID: String
    public var kind: HoldKind
    public var seatIDs: [String]
    public var reason: String
    /// When the seats return to sale by themselves (Unix milliseconds; nil: a block stays until removed).
    public var releaseAt: Int64?
    public var operatorName: String
    public var createdAt: Int64
    public var version: UInt64
}

/// Blocks and house seats: holds of the box office, on the buyers' machinery (one version, one event,
/// the batch writer, the expiry pass), whose seats are `blocked` to buyers. A reservation has no token
/// anyone knows (its digest is of 128 random bits thrown away), so no buyer's call can reach it; the
/// box office finds it by id.
extension Inventory {
    /// A block never releases itself: its expiry is the year 9999.
    static let never: Int64 = 253_402_300_799_000

    /// When reserved seats return to sale by themselves.
    public enum ReleaseTime: Sendable, Equatable {
        /// Unix milliseconds.
        case at(Int64)
        /// So many minutes before the show starts (house seats kept until just before the doors open).
        case minutesBeforeStart(Int)
    }

    public struct NewReservation: Sendable {
        public var kind: HoldKind
        public var seatIDs: [String]
        public var reason: String
        public var release: ReleaseTime?
        public init(kind: HoldKind, seatIDs: [String], reason: String, release: ReleaseTime?) {
            self.kind = kind; self.seatIDs = seatIDs; self.reason = reason; self.release = release
        }
    }

    /// Reserves every seat or none: a held, sold or reserved seat is a 409 naming it.
    package func beginCreateReservation(
        show showID: String, _ new: NewReservation, by operatorName: String, idempotency: IdempotentRequest<ReservationView>? = nil
    ) throws(Refusal) -> (Answer<ReservationView>, CommitTicket?) {
        precondition(new.kind.isReservation, "a reservation is blocked or house")
        let stored = try storedAnswer(idempotency, show: showID)
        let now = clock()
        let (random, token) = Self.randomIDAndToken(prefix: idPrefix(show: showID, now))
        let id = "r_" + random, digest = Secrets.tokenDigest(token)
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> (Answer<ReservationView>, CommitTicket?) in
            if let body = try replay(idempotency, stored: stored, in: m) { return (.replayed(body: body), nil) }
            let state = try state(forShow: showID, in: m)
            try checkNotCancelled(state)
            var releaseAt: Int64?
            switch new.release {
            case nil: releaseAt = nil
            case .at(let t)?: releaseAt = t
            case .minutesBeforeStart(let minutes)?:
                guard let starts = state.startsAtMilliseconds else {
                    throw Refusal(.invalidBody, detail: "show \(showID)'s start time cannot be read: give releaseAt as a time")
                }
                releaseAt = starts - Int64(minutes) * 60_000
            }
            if let at = releaseAt, at <= now {
                throw Refusal(.invalidBody, detail: "releaseAt has passed: the seats would return to sale at once")
            }
            // Seats kept come back to nobody after the show: a release years later is a typo, never a plan.
            if let at = releaseAt, let ends = state.endsAtMilliseconds, at > ends {
                throw Refusal(
                    .invalidBody,
                    detail: "releaseAt \(Self.isoTime(at)) is after show \(showID) ends (\(Self.isoTime(ends))): keep seats for guests until the end at most")
            }
            guard !new.seatIDs.isEmpty else { throw Refusal(.noSeats, detail: "a reservation needs at least one seat") }
            let seats = try resolve(new.seatIDs, in: state.layout).sorted()
            try checkFree(seats, in: state, own: [])
            let record = HoldRecord(
                id: id, tokenDigest: digest, showID: showID, state: .active, expiresAt: releaseAt ?? Self.never, extended: false,
                orderRef: nil, wheelchair: false, createdAt: now, kind: new.kind, reason: new.reason, operatorName: operatorName)
            let hold = ActiveHold(record: record, seats: seats)
            // The answer kept for a retry goes in the same commit, so it is drawn before it, at the version it makes.
            var answer = reservationView(hold, in: state)
            answer.version += 1
            let ticket = try apply(
                state, in: m, changes: seats.map { SeatChange(seat: $0, status: .blocked) },
                insert: seats.map { Claim(seat: $0, status: .blocked, holdID: id) }, holds: [record], idempotency: idempotency.map { $0.kept(answer) },
                log: LogEntry(action: new.kind.rawValue, holdID: id, operatorName: operatorName, reason: new.reason))
            state.holds[digest] = hold
            m.holdShow[digest] = showID
            metrics.count("reservations_made")
            return (.done(answer), ticket)
        }
    }

    /// The show's reservations, oldest first.
    /// - Complexity: O(live holds of the show).
    public func reservations(show showID: String) throws(Refusal) -> [ReservationView] {
        let read = try readReservations(show: showID)
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> [ReservationView] in
            for snapshot in read { apply(snapshot, in: m) }
            let state = try state(forShow: showID, in: m)
            // A channel is a partner's (`channels(show:)`), not the box office's.
            return state.holds.values.filter { $0.record.kind != .buyer && !Self.isChannel($0.record) }.sorted { $0.record.id < $1.record.id }.map {
                reservationView($0, in: state)
            }
        }
    }

    public func reservation(id: String) throws(Refusal) -> ReservationView {
        let snapshot = try readReservation(id)
        return try locked { (m: Memory) throws(Refusal) -> ReservationView in
            apply(snapshot, in: m)
            let (state, hold) = try liveReservation(id, in: m)
            return reservationView(hold, in: state)
        }
    }

    /// Returns the reservation's seats to sale.
    package func beginReleaseReservation(id: String, by operatorName: String) throws(Refusal) -> CommitTicket {
        let snapshot = try readReservation(id)
        return try locked { (m: Memory) throws(Refusal) -> CommitTicket in
            apply(snapshot, in: m)
            let (state, hold) = try liveReservation(id, in: m)
            let ticket = try end(hold, as: .released, in: state, m, by: operatorName, reason: hold.record.reason)
            metrics.count("reservations_released")
            return ticket
        }
    }

    /// Adds free seats to the reservation and returns others to sale, atomically; removing every seat
    /// releases it.
    package func beginModifyReservation(id: String, add: [String], remove: [String], by operatorName: String) throws(Refusal) -> (
        ReservationView, CommitTicket
    ) {
        let snapshot = try readReservation(id)
        return try locked { (m: Memory) throws(Refusal) -> (ReservationView, CommitTicket) in
            apply(snapshot, in: m)
            let (state, hold) = try liveReservation(id, in: m)
            let adding = try resolve(add, in: state.layout), removing = try resolve(remove, in: state.layout)
            let own = Set(hold.seats)
            let notIn = removing.filter { !own.contains($0) }
            if !notIn.isEmpty {
                throw Refusal(.notInHold, detail: "not in reservation \(id): \(notIn.map { state.layout.seatID($0) }.joined(separator: ", "))")
            }
            try checkFree(adding, in: state, own: own)
            let result = own.union(adding).subtracting(removing).sorted()
            let added = result.filter { !own.contains($0) }, dropped = hold.seats.filter { !result.contains($0) }
            var record = hold.record
            if result.isEmpty { record.state = .released }
            let ticket = try apply(
                state, in: m,
                changes: added.map { SeatChange(seat: $0, status: .blocked) } + dropped.map { SeatChange(seat: $0, status: .available) },
                insert: added.map { Claim(seat: $0, status: .blocked, holdID: id) }, delete: dropped, holds: [record],
                log: LogEntry(action: result.isEmpty ? "release" : "modify", holdID: id, operatorName: operatorName, reason: record.reason))
            let updated = ActiveHold(record: record, seats: result)
            if result.isEmpty {
                m.ended(record, in: state)
            } else {
                state.holds[record.tokenDigest] = updated
            }
            return (reservationView(updated, in: state), ticket)
        }
    }

    /// With a shared store a reservation may be another instance's: it is read (outside the lock, one
    /// query) and applied to memory under the lock before any operation on it, as buyers' holds are.
    func readReservation(_ id: String) throws(Refusal) -> HoldSnapshot? {
        do {
            guard let read = try mode.reread({ try store.holdWithSeats(id: id) }) ?? nil, read.record.kind.isReservation else { return nil }
            return HoldSnapshot(tokenDigest: read.record.tokenDigest, read: read)
        } catch { throw Self.storeRefusal(error) }
    }

    /// The show's live reservations (or all its live holds) as the shared store has them (every instance's).
    func readReservations(show: String, buyersToo: Bool = false) throws(Refusal) -> [HoldSnapshot] {
        do {
            return try (mode.reread { try store.activeHolds(show: show) } ?? []).filter { buyersToo || $0.kind.isReservation }.map { r in
                HoldSnapshot(tokenDigest: r.tokenDigest, read: (r, try store.holdSeats(holdID: r.id)))
            }
        } catch { throw Self.storeRefusal(error) }
    }

    /// The live reservation with this id, or a 404. Called under the lock.
    /// - Complexity: O(live holds): reservations are found by id only by operators, a few times a minute.
    func liveReservation(_ id: String, in m: Memory) throws(Refusal) -> (ShowState, ActiveHold) {
        for state in m.shows.values {
            if let hold = state.holds.values.first(where: { $0.record.id == id && $0.record.kind != .buyer }) { return (state, hold) }
        }
        throw Refusal(.notFound, detail: "no reservation \(id) (released ones are not kept here)")
    }

    func reservationView(_ hold: ActiveHold, in state: ShowState) -> ReservationView {
        let r = hold.record
        return ReservationView(
            id: r.id, showID: r.showID, kind: r.kind, seatIDs: hold.seats.map { state.layout.seatID($0) }, reason: r.reason ?? "",
            releaseAt: r.expiresAt >= Self.never ? nil : r.expiresAt, operatorName: r.operatorName ?? "", createdAt: r.createdAt,
            version: state.availability.version)
    }
}
