import Foundation
import Logging
import SeatDomain
import SeatJSON
import SeatMap
import SeatSecrets
import SharedState
import Synchronization

/// The seat inventory: venues, shows, holds, sales. Every change is checked and reserved in memory
/// under one lock, queued to the `BatchWriter`, and answered once the store has committed it; events are
/// published after the commit, in version order. Memory is a cache of the store: on start (and after a
/// failed write) it is rebuilt from the store.
public final class Inventory: Sendable {
    package let store: SeatStore
    /// What the store adds when several instances share it (`store.sharing`, asked once): the domain
    /// then follows other instances' changes and takes versions from the store; nil when this process
    /// owns the store and numbers versions itself.
    public let sharing: (any SharedStore)?
    /// Where each show lives when the store is several databases (`store.placement`, asked once).
    public let placement: (any ShowPlacement)?
    /// Commits the changes in groups on its own thread; reports to this inventory from the end of `init`.
    let writer: BatchWriter
    /// The inventory's memory. Lock: `memory` (the inventory lock; see ARCHITECTURE.md for what may be
    /// taken under it).
    let memory = Locked(Memory())
    /// The versions this instance's writes were given, until their notifications come back.
    let ownVersions = Locked(OwnVersions())
    let hub = EventHub()
    /// Refunds on this instance take turns (`refund`); the value counts the turns taken. Lock: `refundTurn`,
    /// taken before the inventory lock and held while the refund's commit is waited on; nothing else waits
    /// for it. (Not a `Locked<Void>`: ThreadSanitizer reports the empty value's accesses as racing.)
    let refundTurn = Locked<UInt64>(0)
    public let metrics = Metrics()
    /// Milliseconds since 1970, plus `clockOffset` (tests move time forward instead of waiting).
    public func clock() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) + clockOffset.value }
    public let clockOffset = AtomicOffset()
    /// Where the inventory says what it could not do and went on without (a store read that failed: the
    /// next pass tries again). Silent unless the app gives one (`seatkit serve` does).
    let logger: Logger
    /// The `data:` of a `show` event: the show as the API writes it (the domain knows no wire format;
    /// `SeatServerApp` gives the API's writer).
    let describeShow: @Sendable (ShowSummary) -> String

    public init(
        store: SeatStore, logger: Logger = Logger(label: "seatkit", factory: { _ in SwiftLogNoOpLogHandler() }),
        describeShow: @escaping @Sendable (ShowSummary) -> String
    ) throws {
        self.store = store
        self.logger = logger
        self.describeShow = describeShow
        sharing = store.sharing
        placement = store.placement
        // PostgreSQL gives each change a subtransaction; past 64 in one transaction every other session's
        // visibility checks go through pg_subtrans (the "subtransaction overflow" cliff), so batches stay below.
        // A writer thread a shard (`BatchWriter`); a show not placed yet (being added) on the first.
        var laneOf: (@Sendable (String) -> Int)?
        if let placement = store.placement { laneOf = { show in placement.shardIndex(ofShow: show) ?? 0 } }
        writer = BatchWriter(store: store, maximumBatch: sharing != nil ? 48 : 256, laneOf: laneOf)
        var venues: [String: VenueEntry] = [:]
        for (id, json) in try store.venues() { venues[id] = VenueEntry(layout: try VenueLayout(json: json)) }
        let active = try store.activeHolds()
        var shows: [ShowState] = []
        for record in try store.shows() {
            guard let venue = venues[record.venueID] else { continue }
            shows.append(try loadState(record, venue: venue, activeHolds: active, claims: try store.claims(show: record.id)))
        }
        locked { m in
            m.venues = venues
            for state in shows { m.install(state) }
        }
        writer.start(committed: { [weak self] in self?.committed($0, $1) }, failed: { [weak self] in self?.failed($0, $1) })
    }

    /// A show's state from what the store has (read by the caller, outside the lock); `install` puts it
    /// in memory.
    func loadState(_ record: ShowRecord, venue: VenueEntry, activeHolds: [HoldRecord], claims: [Claim]) throws -> ShowState {
        let state = try Self.makeState(record: record, venue: venue)
        for claim in claims where claim.seat < venue.layout.seatCount { state.availability.setStatus(claim.status, for: claim.seat) }
        state.availability.commit(version: record.version)
        state.committed = state.availability
        state.soldFreedVersion = record.version
        var seatsByHold: [String: [Int]] = [:]
        for claim in claims { if let h = claim.holdID { seatsByHold[h, default: []].append(claim.seat) } }
        for hold in activeHolds where hold.showID == record.id {
            state.holds[hold.tokenDigest] = ActiveHold(record: hold, seats: (seatsByHold[hold.id] ?? []).sorted())
        }
        return state
    }

    /// After the store committed a batch: readers and subscribers see it, in version order. With a
    /// shared store the versions are the database's: other instances' changes before ours are read from
    /// the event log first (outside the lock), and a change the database refused, or a gap the log read
    /// did not fill, makes its show stale: reloaded from the store right after, outside the lock.
    func committed(_ commits: [StoreCommit], _ outcomes: [CommitOutcome]) {
        let results = zip(commits, outcomes)
        metrics.count("store_batches")
        metrics.count("store_changes", by: commits.count)
        var earlier: [String: [(version: UInt64, delta: String)]] = [:]
        if sharing != nil {
            ownVersions.withLock { own in
                for (c, outcome) in results { if case .committed(let v, _) = outcome { own.insert(v, show: c.showID) } }
            }
            var firstOwn: [String: UInt64] = [:]
            for (c, outcome) in results { if case .committed(let v, _) = outcome { firstOwn[c.showID] = min(firstOwn[c.showID] ?? v, v) } }
            let known: [(String, UInt64)] = locked { m in firstOwn.keys.compactMap { id in m.shows[id].map { (id, $0.committed.version) } } }
            for (id, from) in known where firstOwn[id]! > from + 1 {
                // Unread (nil), the show is marked stale below and reloaded: nothing is published out of order.
                do { earlier[id] = try store.events(show: id, after: from, limit: Int(firstOwn[id]! - 1 - from)) } catch {
                    storeTrouble("reading other instances' changes before ours", show: id, error)
                }
            }
        }
        let (reload, refresh) = locked { m in
            for (c, outcome) in results {
                if let r = c.idempotency {
                    m.pendingIdempotency[r.key] = nil
                    if case .committed = outcome { m.remember(r) }
                }
                guard let state = m.shows[c.showID] else { continue }
                state.settle(c.changes)
                if c.show != nil { state.pendingShowEdits = max(0, state.pendingShowEdits - 1) }
                // A stale show is replaced by the store's state (its events published then, in order).
                if m.isStale(c.showID) { continue }
                switch outcome {
                case .committed(let version, let delta):
                    if sharing != nil {
                        if let events = earlier.removeValue(forKey: c.showID) { applyEvents(events, to: state, in: m) }
                        // The follower may have read our own event already (and published it; the show's new
                        // fields it could not tell from memory's, which has them since the change was made).
                        guard version > state.committed.version else {
                            if c.show != nil { hub.publish(show: c.showID, changedAt: version, json: describeShow(summary(of: state, now: clock()))) }
                            continue
                        }
                        // Another instance's change in between is not in memory yet: never publish out of order.
                        guard version == state.committed.version + 1 else {
                            m.staleShows.insert(c.showID)
                            if c.show != nil { m.showEventsDue.insert(c.showID) }
                            continue
                        }
                    }
                    for change in c.changes { state.committed.setStatus(change.status, for: change.seat) }
                    state.committed.commit(version: version)
                    if state.availability.version < version { state.availability.commit(version: version) }
                    hub.publish(show: c.showID, version: version, delta: delta, changes: c.changes)
                    if c.show != nil { hub.publish(show: c.showID, changedAt: version, json: describeShow(summary(of: state, now: clock()))) }
                case .refused:
                    m.staleShows.insert(c.showID)
                    m.forgetEndings(of: c.holds)
                }
            }
            return (!m.staleShows.isEmpty, !m.recordsToRefresh.isEmpty)
        }
        if reload { reloadStaleShows() }
        // Known under the lock just taken: the writer takes no second lock a batch to find nothing to read.
        if refresh { refreshShowRecords() }
    }

    /// A batch failed (the disk, the database went away): the shows it touched are reloaded from the
    /// store (outside the lock), and the waiting requests are answered with the error. A show that
    /// cannot be reloaded now is reloaded on a later pass (the expiry thread tries every half second).
    func failed(_ batch: [StoreCommit], _ error: Error) {
        locked { m in
            for c in batch {
                if let key = c.idempotency?.key { m.pendingIdempotency[key] = nil }
                m.shows[c.showID]?.settle(c.changes)
                if c.show != nil, let s = m.shows[c.showID] { s.pendingShowEdits = max(0, s.pendingShowEdits - 1) }
                if m.shows[c.showID] != nil { m.staleShows.insert(c.showID) }
                m.forgetEndings(of: c.holds)
            }
        }
        reloadStaleShows()
    }

    /// Replaces stale shows' memory with what the store has. The store is read outside the lock; the
    /// fresh state is installed under it unless memory has moved past what was read (then a later pass
    /// does it). Meanwhile new holds and reads of the show wait for it (`lockedWhenFresh`). The
    /// versions in between reach subscribers one by one, in order (or as one reset when the log no
    /// longer has them).
    ///
    /// A shared store can be *behind* memory: a database crash loses the acknowledged changes not yet
    /// flushed (holds commit without waiting for the disk; sales wait). Readers may have seen those
    /// versions, so the store is moved past them first, with one event that puts every seat back as the
    /// store has it (`advanceVersion`), and the show is read again: a version number never means two
    /// different maps. Before, the reload waited for the store to catch up with memory, for ever.
    /// - Complexity: four store reads per stale show (a repair adds one write and four reads).
    package func reloadStaleShows() {
        let stale: [(id: String, venue: VenueEntry)] = locked { m in m.staleShows.compactMap { id in m.shows[id].map { (id, $0.venue) } } }
        for (id, venue) in stale {
            // Two rounds: a read, and after a repair of a store that lost changes, the read of the repair.
            for _ in 0..<2 {
                guard let repair = reload(id, venue: venue) else { break }
                metrics.count("show_version_repairs")
                let moved: Bool
                do { moved = try sharing?.advanceVersion(show: id, from: repair.store, past: repair.memory, changes: repair.changes) ?? false } catch {
                    storeTrouble("moving a store that lost changes past them", show: id, error)
                    break
                }
                guard moved else { break }
            }
        }
    }

    /// One reload of a stale show. Returns what the store must be repaired with when it is behind memory.
    private func reload(_ id: String, venue: VenueEntry) -> (store: UInt64, memory: UInt64, changes: [SeatChange])? {
        metrics.count("show_reloads")
        guard let from = locked({ m in m.shows[id]?.committed.version }) else { return nil }
        // A failed read leaves the show stale: requests on it wait or get a 503, the next pass tries again.
        let fresh: ShowState, events: [(version: UInt64, delta: String)]?
        do {
            guard let record = try store.shows().first(where: { $0.id == id }) else { return nil }
            let (active, claims) = (try store.activeHolds(show: id), try store.claims(show: id))
            fresh = try loadState(record, venue: venue, activeHolds: active, claims: claims)
            let to = fresh.committed.version
            events = to > from ? try store.events(show: id, after: from, limit: Int(to - from)) : []
        } catch {
            storeTrouble("reloading a show from the store", show: id, error)
            return nil
        }
        let to = fresh.committed.version
        // Waking the requests waiting for the show (`lockedWhenFresh`).
        return memory.withLockWakingWaiters { m in
            LockRules.enterNoStoreCalls()
            defer { LockRules.leaveNoStoreCalls() }
            // As the reload under the lock did before: changes of ours still queued for the show reach
            // the fresh state when they commit (waiting for none to be queued could wait for ever under
            // load). Memory never moves past the read: a stale show takes no change.
            guard let old = m.shows[id], m.staleShows.contains(id) else { return nil }
            let now = old.committed.version
            if now > to && sharing != nil {
                let changes = (0..<fresh.committed.seatCount).compactMap { seat in
                    old.committed[seat] == fresh.committed[seat] ? nil : SeatChange(seat: seat, status: fresh.committed[seat])
                }
                return (to, now, changes)
            }
            for token in old.holds.keys { m.holdShow[token] = nil }
            fresh.pendingShowEdits = old.pendingShowEdits
            m.install(fresh)
            m.staleShows.remove(id)
            guard to > now else { return nil }
            if let events, now >= from, events.count == Int(to - from) {
                for e in events where e.version > now { hub.publish(show: id, version: e.version, delta: e.delta) }
            } else {
                hub.publish(reset: id, version: to, encoded: fresh.encoded)
            }
            if m.showEventsDue.remove(id) != nil || !Self.sameFields(old.record, fresh.record) {
                hub.publish(show: id, changedAt: to, json: describeShow(summary(of: fresh, now: clock())))
            }
            return nil
        }
    }

    /// Whether two records of a show say the same about it, versions aside.
    static func sameFields(_ a: ShowRecord, _ b: ShowRecord) -> Bool {
        var b = b
        b.version = a.version
        return a == b
    }

    /// Whether some show's memory is waiting for its reload from the store.
    package var hasStaleShows: Bool { locked { m in !m.staleShows.isEmpty } }

    /// Commits what is queued and stops the writer, then sends the events' last round.
    public func stop() {
        writer.stop()
        hub.stop()
    }

    deinit { stop() }

    static func makeState(record: ShowRecord, venue: VenueEntry) throws -> ShowState {
        let policy = try SelectionPolicy(json: Array(record.policyJSON.utf8))
        return ShowState(
            record: record, venue: venue, revisions: try priceRevisions(of: record, layout: venue.layout), policy: policy,
            availability: SeatAvailability(layout: venue.layout))
    }

    /// Every price table the stored show has had, oldest first.
    static func priceRevisions(of record: ShowRecord, layout: VenueLayout) throws -> [SeatPrices] {
        var revisions: [SeatPrices] = []
        if let earlier = try JSONParser.parse(Array(record.earlierPricesJSON.utf8)).arrayValue {
            for table in earlier { revisions.append(try SeatPrices(table: PriceTable(jsonValue: table), layout: layout)) }
        }
        revisions.append(try SeatPrices(table: PriceTable(json: Array(record.pricesJSON.utf8)), layout: layout))
        return revisions
    }

    /// `body` under the inventory lock once `show` is not being reloaded (the lock released while
    /// waiting, at most `patience` seconds; then `state(forShow:)` refuses with a 503 to retry). A
    /// reload takes a few store reads: the requests it would have refused wait for it instead.
    func lockedWhenFresh<T, E: Error>(show id: String, patience: Double = 2, _ body: (Memory) throws(E) -> T) throws(E) -> T {
        // The usual case (no show stale) is one lock round trip with no clock read and no hashing.
        let done: T? = try memory.withLock { (m: inout Memory) throws(E) -> T? in
            LockRules.enterNoStoreCalls()
            defer { LockRules.leaveNoStoreCalls() }
            return m.staleShows.isEmpty ? try body(m) : nil
        }
        if let done { return done }
        // A show whose shard is down is not waited for: the body refuses it at once (`state(forShow:)`).
        let patience = placement?.outage(show: id) == nil ? patience : 0
        return try memory.wait(until: { !$0.staleShows.contains(id) }, deadline: Date().addingTimeInterval(patience)) { (m: inout Memory, _) throws(E) -> T in
            LockRules.enterNoStoreCalls()
            defer { LockRules.leaveNoStoreCalls() }
            return try body(m)
        }
    }

    /// `body` under the inventory lock, with its memory. No store call may happen inside (checked in
    /// debug builds: `LockRules`).
    /// - Complexity: the body's, plus one lock and unlock.
    @inline(__always)
    func locked<T, E: Error>(_ body: (Memory) throws(E) -> T) throws(E) -> T {
        try memory.withLock { (m: inout Memory) throws(E) -> T in
            LockRules.enterNoStoreCalls()
            defer { LockRules.leaveNoStoreCalls() }
            return try body(m)
        }
    }

    // MARK: Venues and shows

    /// Adds a venue; a venue id is immutable once created (so its ETag can be cached forever). The
    /// store is written outside the inventory lock (a 100,000-seat venue is 5 MB of JSON: its insert held
    /// every request of every show); two adds of one id at once are told apart by the store's key.
    public func addVenue(_ layout: VenueLayout) throws(Refusal) {
        let exists = locked { m in m.venues[layout.id] != nil }
        if exists { throw Refusal(.venueExists, detail: "venue \(layout.id) already exists; venues are immutable, create one with a new id") }
        let entry = VenueEntry(layout: layout)
        do { try store.insertVenue(id: layout.id, fingerprint: layout.fingerprintHex, layoutJSON: entry.json) } catch {
            if Self.isDuplicate(error) {
                throw Refusal(.venueExists, detail: "venue \(layout.id) already exists (created by another instance); venues are immutable")
            }
            throw Refusal(.storeFailed, detail: "\(error)")
        }
        // The follower may have read it from a shared store meanwhile: the same venue either way.
        locked { m in if m.venues[layout.id] == nil { m.venues[layout.id] = entry } }
    }

    public struct NewShow: Sendable {
        public var id: String
        public var venueID: String
        public var startsAt: String
        public var prices: PriceTable
        public var policy: SelectionPolicy
        public var holdSeconds: Int
        /// What buyers are told (title, film, format, language, poster…): a JSON object.
        public var detailsJSON: String
        /// The shard to keep it on, when the store has shards (nil: the store's placement rule).
        public var shard: String?
        public init(
            id: String, venueID: String, startsAt: String, prices: PriceTable, policy: SelectionPolicy = .standard, holdSeconds: Int = 600,
            detailsJSON: String = "{}", shard: String? = nil
        ) {
            self.id = id; self.venueID = venueID; self.startsAt = startsAt; self.prices = prices; self.policy = policy; self.holdSeconds = holdSeconds
            self.detailsJSON = detailsJSON; self.shard = shard
        }
    }

    /// Adds a show. As with venues, the store is written outside the inventory lock and two adds of one
    /// id at once are told apart by the store's key.
    public func addShow(_ new: NewShow) throws(Refusal) {
        let venue = try locked { (m: Memory) throws(Refusal) -> VenueEntry in
            guard let venue = m.venues[new.venueID] else { throw Refusal(.notFound, detail: "no venue \(new.venueID)") }
            if m.shows[new.id] != nil { throw Refusal(.showExists, detail: "show \(new.id) already exists") }
            if let clash = scheduleClash(show: new.id, venue: new.venueID, startsAt: new.startsAt, detailsJSON: new.detailsJSON, in: m) { throw clash }
            return venue
        }
        do throws(LayoutError) { _ = try SeatPrices(table: new.prices, layout: venue.layout) } catch { throw Refusal.invalid(error) }
        let record = ShowRecord(
            id: new.id, venueID: new.venueID, startsAt: new.startsAt,
            pricesJSON: String(decoding: new.prices.jsonBytes(), as: UTF8.self),
            policyJSON: String(decoding: new.policy.jsonBytes(), as: UTF8.self), holdSeconds: new.holdSeconds, version: 0,
            detailsJSON: new.detailsJSON)
        let state: ShowState
        do {
            state = try Self.makeState(record: record, venue: venue)
            if let placement {
                _ = try placement.insertShow(record, on: new.shard)
            } else if let shard = new.shard {
                throw PlacementError.unknownShard(shard, known: [])
            } else {
                try store.insertShow(record)
            }
        } catch let e as LayoutError { throw Refusal.invalid(e) } catch let e as PlacementError {
            throw Self.placementRefusal(e)
        } catch {
            if Self.isDuplicate(error) {
                throw Refusal(.showExists, detail: "show \(new.id) already exists (created by another instance)")
            }
            throw Refusal(.storeFailed, detail: "\(error)")
        }
        // The follower may have loaded it from a shared store meanwhile (with holds made since): keep that.
        locked { m in if m.shows[new.id] == nil { m.shows[new.id] = state } }
    }

    /// A unique key said no: the row exists (with a shared store, another instance made it first).
    static func isDuplicate(_ error: Error) -> Bool {
        StoreError(error).isConflict
    }

    public var showIDs: [String] {
        locked { m in m.shows.values.sorted { ($0.record.startsAt, $0.record.id) < ($1.record.startsAt, $1.record.id) }.map(\.record.id) }
    }
    public var venueIDs: [String] { locked { m in m.venues.keys.sorted() } }
    /// Shows that have not started yet (on sale), in start order.
    public var upcomingShowIDs: [String] {
        let now = clock()
        return locked { m in
            m.shows.values.filter { ($0.startsAtMilliseconds ?? .max) > now }
                .sorted { ($0.record.startsAt, $0.record.id) < ($1.record.startsAt, $1.record.id) }.map(\.record.id)
        }
    }
}

extension Inventory {
    /// A store operation that failed and that the inventory went on without (retried on the next pass):
    /// said at `warning`, with its cause, so an operator sees a store that keeps failing.
    func storeTrouble(_ what: String, show: String? = nil, _ error: any Error) {
        metrics.count("store_troubles")
        var metadata: Logger.Metadata = ["cause": .string(String(describing: StoreError(error)))]
        if let show { metadata["show"] = .string(show) }
        logger.warning("\(what) failed", metadata: metadata)
    }
}

/// A shared number of milliseconds (the tests' clock offset): an atomic, read on every clock reading.
public final class AtomicOffset: Sendable {
    private let stored = Atomic<Int64>(0)
    public var value: Int64 { stored.load(ordering: .sequentiallyConsistent) }
    public func advance(by ms: Int64) { stored.add(ms, ordering: .sequentiallyConsistent) }
}
