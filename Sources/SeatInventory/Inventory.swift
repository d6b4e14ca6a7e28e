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
    /// Whether this process owns the store or shares it with other instances (`store.sharing`, asked
    /// once): every difference between the two is the mode's (`StoreMode`).
    let mode: any StoreMode
    /// The store other instances write too, which the app follows (nil when this process owns it).
    public var sharing: (any SharedStore)? { mode.shared }
    /// Where each show lives when the store is several databases (`store.placement`, asked once).
    public let placement: (any ShowPlacement)?
    /// Commits the changes in groups on its own thread; reports to this inventory from the end of `init`.
    let writer: BatchWriter
    /// The inventory's memory. Lock: `memory` (the inventory lock; see ARCHITECTURE.md for what may be
    /// taken under it).
    let memory = Locked(Memory())
    /// The versions this instance's writes were given, until their notifications come back.
    let hub = EventHub()
    /// Refunds on this instance take turns (`refund`); the value counts the turns taken. Lock: `refundTurn`,
    /// taken before the inventory lock and held while the refund's commit is waited on; nothing else waits
    /// for it. (Not a `Locked<Void>`: ThreadSanitizer reports the empty value's accesses as racing.)
    let refundTurn = Locked<UInt64>(0)
    public let metrics = Metrics()
    /// How the domain asks a provider where a payment stands (`askPayments`). Lock: its own (a leaf).
    let paymentQuery = Locked<(@Sendable (PaymentRecord) -> PaymentState?)?>(nil)
    /// How refunds the domain wrote reach their providers (`sendRefunds(with:)`). Lock: its own (a leaf).
    let refundSender = Locked<(@Sendable ([PaymentRefundRecord]) -> Void)?>(nil)
    /// When each paying hold's payment was last asked about (`settlePaying`). Lock: its own (a leaf).
    let paymentsAsked = Locked<[String: Int64]>([:])
    /// Wakes the waitlist's offerer (`offerWaitlists`) at once when seats or entries came (a refund, a
    /// join, an offer let go) instead of at its next half second.
    public let waitlistWake = DispatchSemaphore(value: 0)
    /// Milliseconds since 1970, plus `clockOffset` (tests move time forward instead of waiting).
    public func clock() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) + clockOffset.value }
    public let clockOffset = AtomicOffset()
    /// Where the inventory says what it could not do and went on without (a store read that failed: the
    /// next pass tries again). Silent unless the app gives one (`seatkit serve` does).
    let logger: Logger
    /// The `data:` of a `show` event: the show as the API writes it (the domain knows no wire format;
    /// `SeatServerApp` gives the API's writer).
    let describeShow: @Sendable (ShowSummary) -> String
    /// What seals attendees and buyers' contacts and keys their lookups (`PersonalDataKeys`): the
    /// server's (a file, or drawn from the admin key); a fresh random set when none is given (a test's
    /// inventory: what it seals opens only in this process).
    public let personalData: PersonalDataKeys

    public init(
        store: SeatStore, logger: Logger = Logger(label: "seatkit", factory: { _ in SwiftLogNoOpLogHandler() }),
        commitGatherSeconds: Double? = nil, personalData: PersonalDataKeys? = nil, describeShow: @escaping @Sendable (ShowSummary) -> String
    ) throws {
        self.personalData = personalData ?? PersonalDataKeys(derivedFrom: Self.randomIDAndToken(prefix: "pd").1)
        self.store = store
        self.logger = logger
        self.describeShow = describeShow
        mode = store.sharing.map { SharedWithOthers(store: $0) } ?? OwnedStore()
        placement = store.placement
        // A writer thread a shard (`BatchWriter`); a show not placed yet (being added) on the first.
        var laneOf: (@Sendable (String) -> Int)?
        if let placement = store.placement { laneOf = { show in placement.shardIndex(ofShow: show) ?? 0 } }
        writer = BatchWriter(
            store: store, maximumBatch: mode.batching.maximum, gather: commitGatherSeconds ?? mode.batching.gatherSeconds, laneOf: laneOf)
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
        writer.start(
            committed: { [weak self] in self?.committed($0, $1) },
            failed: { [weak self] in self?.failed($0, $1) })
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
        for claim in claims where claim.identity != nil && claim.seat < venue.layout.seatCount {
            if let a = attendee(fromClaim: claim, show: record.id) { state.bind(claim.seat, a) }
        }
        return state
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
    func lockedWhenFresh<T: Sendable, E: Error>(show id: String, patience: Double = 2, _ body: (Memory) throws(E) -> T) throws(E) -> T {
        try lockedWhenFresh(shows: CollectionOfOne(id), patience: patience, body)
    }

    /// `body` under the lock once none of `ids` is being reloaded: for what reads or changes several
    /// shows at once (an order's, a report's). Reads wait for a reload like writes: under two instances'
    /// races 102 of 2,510 show reports were 503s ("being reloaded") on a healthy database.
    func lockedWhenFresh<T: Sendable, E: Error, Shows: Collection<String>>(
        shows ids: Shows, patience: Double = 2, _ body: (Memory) throws(E) -> T
    ) throws(E) -> T {
        // The usual case (no show stale) is one lock round trip with no clock read and no hashing.
        let done: T? = try memory.withLock { (m: inout Memory) throws(E) -> T? in
            LockRules.enterNoStoreCalls()
            defer { LockRules.leaveNoStoreCalls() }
            return m.staleShows.isEmpty ? try body(m) : nil
        }
        if let done { return done }
        // A show whose shard is down is not waited for: the body refuses it at once (`state(forShow:)`).
        let patience = ids.contains { placement?.outage(show: $0) != nil } ? 0 : patience
        return try memory.wait(until: { m in !ids.contains { m.staleShows.contains($0) } }, deadline: Date().addingTimeInterval(patience)) {
            (m: inout Memory, _) throws(E) -> T in
            LockRules.enterNoStoreCalls()
            defer { LockRules.leaveNoStoreCalls() }
            return try body(m)
        }
    }

    /// `body` under the inventory lock, with its memory. No store call may happen inside (checked in
    /// debug builds: `LockRules`).
    /// - Complexity: the body's, plus one lock and unlock.
    @inline(__always)
    func locked<T: Sendable, E: Error>(_ body: (Memory) throws(E) -> T) throws(E) -> T {
        try memory.withLock { (m: inout Memory) throws(E) -> T in
            LockRules.enterNoStoreCalls()
            defer { LockRules.leaveNoStoreCalls() }
            return try body(m)
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
