import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SharedState

/// A `SeatStore` that keeps everything in memory, with the embedded store's rules: a batch commits
/// whole or not at all, a seat is claimed once, only held or blocked seats are sold or freed, a sold
/// seat is refunded once, a hold changes only while it is active, each show's versions follow on.
/// The box office's rules are tested against it in milliseconds, without a file (BoxOfficeRulesTests).
/// Its rules are read from `SQLiteStore+Commit`; the real stores' own are held by StoreContractTests.
final class InMemoryStore: SeatStore {
    private struct State {
        var venues: [(id: String, layoutJSON: [UInt8])] = []
        var shows: [String: ShowRecord] = [:]
        /// Show → seat → claim.
        var claims: [String: [Int: Claim]] = [:]
        var holds: [String: HoldRecord] = [:]
        var refunds: [RefundRecord] = []
        var log: [String: [LogRecord]] = [:]
        var kept: [String: (response: StoredResponse, at: Int64)] = [:]
    }

    /// Lock: `state`, held for each call (a commit's whole batch is applied to a copy, then swapped in).
    private let state = Locked(State())
    var sharing: (any SharedStore)? { nil }
    var waitingRooms: (any QueueStore)? { nil }
    /// The door's scans too (its `DoorStore` extension below), under a lock of their own.
    var door: (any DoorStore)? { self }
    /// Lock: `doorState`, held for each door call (a leaf: `state` is never taken under it).
    fileprivate let doorState = Locked(DoorState())
    var contacts: (any ContactStore)? { nil }
    var personalData: (any PersonalDataStore)? { nil }
    var seasons: (any SeasonStore)? { nil }
    var payments: (any PaymentStore)? { nil }
    var webhooks: (any WebhookStore)? { nil }
    var waitlists: (any WaitlistStore)? { nil }
    var webhookParts: [any WebhookOutbox] { [] }
    /// Milliseconds since 1970 (the log's times).
    let now: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }

    func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws {
        try state.withLock { s in
            if s.venues.contains(where: { $0.id == id }) { throw StoreError.conflict("venue \(id) exists") }
            s.venues.append((id, layoutJSON))
        }
    }

    func venues() throws -> [(id: String, layoutJSON: [UInt8])] { state.withLock { $0.venues.sorted { $0.id < $1.id } } }

    func insertShow(_ show: ShowRecord) throws {
        try state.withLock { s in
            if s.shows[show.id] != nil { throw StoreError.conflict("show \(show.id) exists") }
            s.shows[show.id] = show
        }
    }

    func shows() throws -> [ShowRecord] { state.withLock { Array($0.shows.values).sorted { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) } } }
    func claims(show: String) throws -> [Claim] { state.withLock { Array(($0.claims[show] ?? [:]).values) } }
    func activeHolds() throws -> [HoldRecord] { state.withLock { $0.holds.values.filter { $0.state == .active } } }
    func hold(tokenDigest: String) throws -> HoldRecord? { state.withLock { $0.holds.values.first { $0.tokenDigest == tokenDigest } } }
    func holdSeats(holdID: String) throws -> [Int] { state.withLock { Self.seats(of: holdID, in: $0) } }

    func holdWithSeats(id: String) throws -> (record: HoldRecord, seats: [Int])? {
        state.withLock { s in s.holds[id].map { ($0, Self.seats(of: id, in: s)) } }
    }

    func showVersions() throws -> [String: UInt64] { state.withLock { $0.shows.mapValues(\.version) } }

    func events(show: String, after version: UInt64, limit: Int) throws -> [(version: UInt64, delta: String)]? {
        state.withLock { s in
            let out = (s.log[show] ?? []).filter { $0.version > version }.prefix(limit).map { ($0.version, $0.delta) }
            if let first = out.first, first.0 != version + 1 { return nil }
            return Array(out)
        }
    }

    func storedResponse(key: String) throws -> StoredResponse? { state.withLock { $0.kept[key]?.response } }

    func prune(idempotencyMilliseconds: Int64) throws {
        let cutoff = now() - idempotencyMilliseconds
        state.withLock { s in s.kept = s.kept.filter { $0.value.at >= cutoff } }
    }

    func salesHistory(venue: String, since: Date, until: Date) throws -> (shows: Int, soldCounts: [Int: Int]) {
        state.withLock { s in
            let past = s.shows.values.filter { r in
                r.venueID == venue && Timestamp.date(r.startsAt).map { $0 >= since && $0 <= until } == true
            }
            var counts: [Int: Int] = [:]
            for show in past { for c in (s.claims[show.id] ?? [:]).values where c.status == .sold { counts[c.seat, default: 0] += 1 } }
            return (past.count, counts)
        }
    }

    func orders(orderRef: String) throws -> [(record: HoldRecord, seats: [Int])] { confirmed { $0.orderRef == orderRef } }
    func sales(show: String) throws -> [(record: HoldRecord, seats: [Int])] { confirmed { $0.showID == show } }

    /// The sale that has `seat` of `show` sold now, and the sales it was refunded from, oldest first.
    func seatSales(show: String, seat: Int) -> SeatSales {
        state.withLock { s in
            let current = s.claims[show]?[seat].flatMap { $0.status == .sold ? $0.holdID : nil }
            let refunded = s.refunds.filter { $0.seat == seat && s.holds[$0.holdID]?.showID == show }.sorted { $0.refundedAt < $1.refundedAt }
            return SeatSales(current: current, refunded: refunded.map(\.holdID))
        }
    }

    func refunds(holdIDs: [String]) throws -> [RefundRecord] {
        state.withLock { s in
            holdIDs.flatMap { id in s.refunds.filter { $0.holdID == id }.sorted { ($0.refundedAt, $0.seat) < ($1.refundedAt, $1.seat) } }
        }
    }

    func log(show: String, after version: UInt64, limit: Int) throws -> [LogRecord] {
        state.withLock { s in Array((s.log[show] ?? []).filter { $0.version > version }.prefix(limit)) }
    }

    private func confirmed(_ matches: (HoldRecord) -> Bool) -> [(record: HoldRecord, seats: [Int])] {
        state.withLock { s in
            s.holds.values.filter { $0.state == .confirmed && matches($0) }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map { r in
                (r, Self.seats(of: r.id, in: s, status: .sold))
            }
        }
    }

    private static func seats(of holdID: String, in s: State, status: SeatStatus? = nil) -> [Int] {
        s.claims.values.flatMap { $0.values }.filter { $0.holdID == holdID && (status == nil || $0.status == status) }.map(\.seat).sorted()
    }

    // MARK: - Commit

    func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
        let at = now()
        try state.withLock { s in
            var next = s
            for c in batch { try Self.apply(c, at: at, to: &next) }
            s = next
        }
        return batch.map { .committed(version: $0.version, delta: $0.delta) }
    }

    private static func apply(_ c: StoreCommit, at: Int64, to s: inout State) throws {
        guard var show = s.shows[c.showID] else { throw StoreError.conflict("no show \(c.showID)") }
        guard c.version == show.version + 1 else { throw StoreError.conflict("show \(c.showID): version \(c.version) does not follow \(show.version)") }
        for h in c.holds {
            // Written while the stored hold is active, or when it is new (the embedded store's upsert).
            if let stored = s.holds[h.id], stored.state != .active { continue }
            s.holds[h.id] = h
        }
        var claims = s.claims[c.showID] ?? [:]
        for seat in Set(c.delete) {
            guard let claim = claims[seat], claim.status == .held || claim.status == .blocked else {
                throw StoreError.conflict("seat \(seat) of \(c.showID) is no longer held or reserved")
            }
            claims[seat] = nil
        }
        for r in c.refunds {
            guard let claim = claims[r.seat], claim.status == .sold, claim.holdID == r.holdID else {
                throw StoreError.conflict("seat \(r.seat) is no longer sold in \(r.holdID)")
            }
            if s.refunds.contains(where: { $0.holdID == r.holdID && $0.seat == r.seat }) { throw StoreError.conflict("seat \(r.seat) refunded twice") }
            claims[r.seat] = nil
            s.refunds.append(r)
        }
        for claim in c.insert {
            if let taken = claims[claim.seat] { throw StoreError.conflict("seat \(claim.seat) is \(taken.status.name)") }
            claims[claim.seat] = claim
        }
        for seat in Set(c.sell) {
            guard let claim = claims[seat], claim.status == .held || claim.status == .blocked else {
                throw StoreError.conflict("seat \(seat) is not held or reserved")
            }
            claims[seat]!.status = .sold
        }
        s.claims[c.showID] = claims
        if let edited = c.show { show = edited }
        show.version = c.version
        s.shows[c.showID] = show
        s.log[c.showID, default: []].append(LogRecord(version: c.version, at: at, entry: c.log, delta: c.delta))
        if let r = c.idempotency {
            if s.kept[r.key] != nil { throw StoreError.conflict("idempotency key kept twice") }
            s.kept[r.key] = (r, at)
        }
    }
}

/// The door in memory, with the real stores' rules (held to them by DoorStoreContractTests): a ticket
/// flips between out and in only, a nonce is one scan (a retry answers the scan it made).
struct DoorState {
    var inside: [String: CheckInScan] = [:]
    var last: [String: CheckInScan] = [:]
    var byNonce: [String: CheckInScan] = [:]
    var recorded: [CheckInScan] = []
}

extension InMemoryStore: DoorStore {
    func checkIn(_ scan: CheckInScan) throws -> CheckInOutcome {
        doorState.withLock { s in
            let ticket = scan.showID + "\u{1F}" + scan.ticketID, nonce = scan.showID + "\u{1F}" + scan.nonce
            if let earlier = s.byNonce[nonce] { return .recorded(earlier, replay: true) }
            switch scan.direction {
            case .in:
                if let first = s.inside[ticket] { return .alreadyIn(first) }
                s.inside[ticket] = scan
            case .out:
                guard s.inside[ticket] != nil else { return .notInside(s.last[ticket]) }
                s.inside[ticket] = nil
            }
            s.last[ticket] = scan
            s.byNonce[nonce] = scan
            s.recorded.append(scan)
            return .recorded(scan, replay: false)
        }
    }

    func checkInCounts(show: String) throws -> CheckInCounts {
        doorState.withLock { s in
            let scans = s.recorded.filter { $0.showID == show }
            let gates = Set(scans.map(\.gate)).sorted().map { g in
                (g, scans.filter { $0.gate == g && $0.direction == .in }.count, scans.filter { $0.gate == g && $0.direction == .out }.count)
            }
            let came = Set(scans.filter { $0.direction == .in }.map(\.ticketID)).count
            return CheckInCounts(gates: gates, inside: s.inside.values.filter { $0.showID == show }.count, came: came)
        }
    }

    func recentScans(show: String, limit: Int) throws -> [CheckInScan] {
        doorState.withLock { Array($0.recorded.filter { $0.showID == show }.reversed().prefix(limit)) }
    }
}
