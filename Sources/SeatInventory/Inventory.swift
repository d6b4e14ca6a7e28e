import Foundation
import SeatMap
import SeatSecrets
import SeatStorage
import SharedState

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
    var record: ShowRecord
    let venue: VenueEntry
    let prices: SeatPrices
    let policy: SelectionPolicy
    var availability: SeatAvailability
    var committed: SeatAvailability
    /// Live holds by token digest.
    var holds: [String: ActiveHold] = [:]
    /// Seats with a change of ours reserved but not yet committed, and how many: with a shared store,
    /// events read back from the log must not overwrite them in `availability` (ours is newer there).
    var pendingSeats: [SeatIndex: Int] = [:]
    private var encodedCache: (UInt64, String)?
    /// When the show starts (Unix milliseconds): sales close then (nil: a time this server cannot read,
    /// from a store written by another version; such a show stays on sale).
    let startsAtMilliseconds: Int64?

    func reserve(_ changes: [SeatChange]) { for c in changes { pendingSeats[c.seat, default: 0] += 1 } }

    func settle(_ changes: [SeatChange]) {
        for c in changes {
            if let n = pendingSeats[c.seat], n > 1 { pendingSeats[c.seat] = n - 1 } else { pendingSeats[c.seat] = nil }
        }
    }

    init(record: ShowRecord, venue: VenueEntry, prices: SeatPrices, policy: SelectionPolicy, availability: SeatAvailability) {
        self.record = record; self.venue = venue; self.prices = prices; self.policy = policy
        self.availability = availability; self.committed = availability
        startsAtMilliseconds = Self.milliseconds(ofTimestamp: record.startsAt)
    }

    /// An ISO 8601 time with its offset (`2026-12-01T19:30:00+08:00`, fractions of a second allowed).
    static func milliseconds(ofTimestamp text: String) -> Int64? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        if let d = f.date(from: text) { return Int64((d.timeIntervalSince1970 * 1000).rounded()) }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    var layout: VenueLayout { venue.layout }

    /// The committed availability's compact encoding, computed once per version.
    var encoded: String {
        if let (v, text) = encodedCache, v == committed.version { return text }
        let text = committed.encoded()
        encodedCache = (committed.version, text)
        return text
    }
}

/// The seat inventory: venues, shows, holds, sales. Every change is checked and reserved in memory
/// under one lock, queued to the `BatchWriter`, and answered once the store has committed it; events are
/// published after the commit, in version order. Memory is a cache of the store: on start (and after a
/// failed write) it is rebuilt from the store.
public final class Inventory: @unchecked Sendable {
    package let store: SeatStore
    let lock = NSLock()
    private(set) var writer: BatchWriter?
    /// Answers kept for `Idempotency-Key`s whose commit is still queued.
    var pendingIdempotency: [String: StoredResponse] = [:]
    /// The latest committed answers (a retry whose store read came just before the commit finds them
    /// here); the oldest are dropped past 4096.
    var recentIdempotency: [String: StoredResponse] = [:]
    var recentIdempotencyOrder: [String] = []
    var venues: [String: VenueEntry] = [:]
    var shows: [String: ShowState] = [:]
    /// Live holds by token digest (`Secrets.tokenDigest`) → show id. Memory, like the store, is keyed
    /// by the digest: the token itself is only in the client's hands and in the request being served.
    var holdShow: [String: String] = [:]
    /// Shows whose memory may disagree with the store (a write failed and the reload did too): reloaded
    /// before their next use.
    var staleShows: Set<String> = []
    let hub = EventHub()
    public let metrics = Metrics()
    /// Milliseconds since 1970, plus `clockOffset` (tests move time forward instead of waiting).
    public func clock() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) + clockOffset.value }
    public let clockOffset = AtomicOffset()

    public init(store: SeatStore) throws {
        self.store = store
        for (id, json) in try store.venues() {
            venues[id] = VenueEntry(layout: try VenueLayout(json: json))
        }
        let active = try store.activeHolds()
        for record in try store.shows() {
            guard let venue = venues[record.venueID] else { continue }
            shows[record.id] = try loadState(record, venue: venue, activeHolds: active)
        }
        // PostgreSQL gives each change a subtransaction; past 64 in one transaction every other session's
        // visibility checks go through pg_subtrans (the "subtransaction overflow" cliff), so batches stay below.
        writer = BatchWriter(
            store: store, maximumBatch: store.assignsVersions ? 48 : 256, committed: { [weak self] in self?.committed($0) },
            failed: { [weak self] in self?.failed($0, $1) })
    }

    /// A show's state as the store has it.
    func loadState(_ record: ShowRecord, venue: VenueEntry, activeHolds: [HoldRecord]) throws -> ShowState {
        let state = try Self.makeState(record: record, venue: venue)
        let claims = try store.claims(show: record.id)
        for claim in claims where claim.seat < venue.layout.seatCount { state.availability.setStatus(claim.status, for: claim.seat) }
        state.availability.commit(version: record.version)
        state.committed = state.availability
        var seatsByHold: [String: [Int]] = [:]
        for claim in claims { if let h = claim.holdID { seatsByHold[h, default: []].append(claim.seat) } }
        for hold in activeHolds where hold.showID == record.id {
            state.holds[hold.tokenDigest] = ActiveHold(record: hold, seats: (seatsByHold[hold.id] ?? []).sorted())
            holdShow[hold.tokenDigest] = hold.showID
        }
        return state
    }

    /// After the store committed a batch: readers and subscribers see it, in version order. With a
    /// shared store the versions are the database's: other instances' changes before ours are read from
    /// the event log first, and a change the database refused reloads its show.
    func committed(_ results: [(StoreCommit, CommitOutcome)]) {
        metrics.count("store_batches")
        metrics.count("store_changes", by: results.count)
        // Other instances' changes before ours are read from the log before taking the lock.
        var earlier: [String: [(version: UInt64, delta: String)]] = [:]
        if store.assignsVersions {
            var firstOwn: [String: UInt64] = [:]
            for (c, outcome) in results { if case .committed(let v, _) = outcome { firstOwn[c.showID] = min(firstOwn[c.showID] ?? v, v) } }
            let known: [(String, UInt64)] = locked { firstOwn.keys.compactMap { id in shows[id].map { (id, $0.committed.version) } } }
            for (id, from) in known where firstOwn[id]! > from + 1 {
                earlier[id] = (try? store.events(show: id, after: from, limit: Int(firstOwn[id]! - 1 - from))) ?? nil
            }
        }
        locked {
            var refused = Set<String>()
            for (c, outcome) in results {
                if let r = c.idempotency {
                    pendingIdempotency[r.key] = nil
                    if case .committed = outcome { rememberAnswer(r) }
                }
                guard let state = shows[c.showID] else { continue }
                state.settle(c.changes)
                switch outcome {
                case .committed(let version, let delta):
                    if store.assignsVersions {
                        if let events = earlier.removeValue(forKey: c.showID) { applyEvents(events, to: state) }
                        catchUp(state, to: version - 1)
                        // The follower may have read our own event already.
                        guard version > state.committed.version else { continue }
                    }
                    for change in c.changes { state.committed.setStatus(change.status, for: change.seat) }
                    state.committed.commit(version: version)
                    if state.availability.version < version { state.availability.commit(version: version) }
                    hub.publish(show: c.showID, version: version, delta: delta, changes: c.changes)
                case .refused:
                    refused.insert(c.showID)
                }
            }
            for id in refused { reloadShow(id) }
        }
    }

    /// A batch failed (the disk, the database went away): memory is rebuilt from the store for the shows
    /// it touched, and the waiting requests are answered with the error. A show that cannot be reloaded
    /// now is reloaded on its next use.
    func failed(_ batch: [StoreCommit], _ error: Error) {
        locked {
            for c in batch {
                if let key = c.idempotency?.key { pendingIdempotency[key] = nil }
                shows[c.showID]?.settle(c.changes)
            }
            for id in Set(batch.map(\.showID)) { reloadShow(id) }
        }
    }

    func rememberAnswer(_ r: StoredResponse) {
        if recentIdempotency.updateValue(r, forKey: r.key) == nil { recentIdempotencyOrder.append(r.key) }
        if recentIdempotencyOrder.count > 4096 {
            for key in recentIdempotencyOrder.prefix(1024) { recentIdempotency[key] = nil }
            recentIdempotencyOrder.removeFirst(1024)
        }
    }

    /// Replaces a show's memory with what the store has (under the lock); marks it stale on failure.
    func reloadShow(_ id: String) {
        guard let old = shows[id] else { return }
        metrics.count("show_reloads")
        do {
            guard let record = try store.shows().first(where: { $0.id == id }) else { return }
            let active = try store.activeHolds(show: id)
            for token in old.holds.keys { holdShow[token] = nil }
            let fresh = try loadState(record, venue: old.venue, activeHolds: active)
            shows[id] = fresh
            staleShows.remove(id)
            // Other instances' changes in between reach this instance's subscribers one by one, in order.
            let from = old.committed.version, to = fresh.committed.version
            if to > from {
                if let events = try? store.events(show: id, after: from, limit: Int(to - from)), events.count == Int(to - from) {
                    for e in events { hub.publish(show: id, version: e.version, delta: e.delta) }
                } else {
                    hub.publish(reset: id, version: to, encoded: fresh.encoded)
                }
            }
        } catch {
            staleShows.insert(id)
        }
    }

    /// Commits what is queued and stops the writer.
    public func stop() { writer?.stop() }

    deinit { writer?.stop() }

    static func makeState(record: ShowRecord, venue: VenueEntry) throws -> ShowState {
        let prices = try SeatPrices(table: PriceTable(json: Array(record.pricesJSON.utf8)), layout: venue.layout)
        let policy = try SelectionPolicy(json: Array(record.policyJSON.utf8))
        return ShowState(record: record, venue: venue, prices: prices, policy: policy, availability: SeatAvailability(layout: venue.layout))
    }

    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock(); defer { lock.unlock() }
        return try body()
    }

    // MARK: Venues and shows

    /// Adds a venue; a venue id is immutable once created (so its ETag can be cached forever).
    public func addVenue(_ layout: VenueLayout) throws(Refusal) {
        try locked { () throws(Refusal) in
            if venues[layout.id] != nil {
                throw Refusal(.venueExists, detail: "venue \(layout.id) already exists; venues are immutable, create one with a new id")
            }
            let entry = VenueEntry(layout: layout)
            do { try store.insertVenue(id: layout.id, fingerprint: layout.fingerprintHex, layoutJSON: entry.json) } catch {
                if Self.isDuplicate(error) {
                    throw Refusal(.venueExists, detail: "venue \(layout.id) already exists (created by another instance); venues are immutable")
                }
                throw Refusal(.storeFailed, detail: "\(error)")
            }
            venues[layout.id] = entry
        }
    }

    public struct NewShow: Sendable {
        public var id: String
        public var venueID: String
        public var startsAt: String
        public var prices: PriceTable
        public var policy: SelectionPolicy
        public var holdSeconds: Int
        public init(id: String, venueID: String, startsAt: String, prices: PriceTable, policy: SelectionPolicy = .standard, holdSeconds: Int = 600) {
            self.id = id; self.venueID = venueID; self.startsAt = startsAt; self.prices = prices; self.policy = policy; self.holdSeconds = holdSeconds
        }
    }

    public func addShow(_ new: NewShow) throws(Refusal) {
        try locked { () throws(Refusal) in
            guard let venue = venues[new.venueID] else { throw Refusal(.notFound, detail: "no venue \(new.venueID)") }
            if shows[new.id] != nil { throw Refusal(.showExists, detail: "show \(new.id) already exists") }
            do throws(LayoutError) { _ = try SeatPrices(table: new.prices, layout: venue.layout) } catch { throw Refusal.invalid(error) }
            let record = ShowRecord(
                id: new.id, venueID: new.venueID, startsAt: new.startsAt,
                pricesJSON: String(decoding: new.prices.jsonBytes(), as: UTF8.self),
                policyJSON: String(decoding: new.policy.jsonBytes(), as: UTF8.self), holdSeconds: new.holdSeconds, version: 0)
            do {
                try store.insertShow(record)
                shows[new.id] = try Self.makeState(record: record, venue: venue)
            } catch let e as LayoutError { throw Refusal.invalid(e) } catch {
                if Self.isDuplicate(error) {
                    throw Refusal(.showExists, detail: "show \(new.id) already exists (created by another instance)")
                }
                throw Refusal(.storeFailed, detail: "\(error)")
            }
        }
    }

    /// A unique key said no: the row exists (with a shared store, another instance made it first).
    static func isDuplicate(_ error: Error) -> Bool {
        (error as? DatabaseError)?.isConstraint == true || (error as? PostgresError)?.isUniqueViolation == true
    }

    public var showIDs: [String] { locked { shows.values.sorted { ($0.record.startsAt, $0.record.id) < ($1.record.startsAt, $1.record.id) }.map(\.record.id) } }
    public var venueIDs: [String] { locked { venues.keys.sorted() } }
    /// Shows that have not started yet (on sale), in start order.
    public var upcomingShowIDs: [String] {
        let now = clock()
        return locked {
            shows.values.filter { ($0.startsAtMilliseconds ?? .max) > now }
                .sorted { ($0.record.startsAt, $0.record.id) < ($1.record.startsAt, $1.record.id) }.map(\.record.id)
        }
    }
}

/// A shared, lock-protected number of milliseconds.
public final class AtomicOffset: Sendable {
    private let stored = Locked<Int64>(0)
    public var value: Int64 { stored.current }
    public func advance(by ms: Int64) { stored.withLock { $0 += ms } }
}
