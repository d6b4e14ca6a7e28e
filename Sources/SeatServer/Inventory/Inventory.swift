import Foundation
import SeatCanvas
import SeatMap

/// A venue as the server keeps it: the layout, its canonical JSON (served with a strong ETag).
final class VenueEntry: @unchecked Sendable {
    let layout: VenueLayout
    let json: [UInt8]
    var etag: String { "\"\(layout.fingerprintHex)\"" }
    init(layout: VenueLayout) { self.layout = layout; self.json = layout.jsonBytes() }
}

/// A live hold: its record and its seats.
struct ActiveHold {
    var record: HoldRecord
    var seats: [SeatIndex]
}

/// One show's state in memory: the availability (the source for reads), live holds, prices, rules.
final class ShowState {
    var record: ShowRecord
    let venue: VenueEntry
    let prices: SeatPrices
    let policy: SelectionPolicy
    var availability: SeatAvailability
    var holds: [String: ActiveHold] = [:]
    private var encodedCache: (UInt64, String)?

    init(record: ShowRecord, venue: VenueEntry, prices: SeatPrices, policy: SelectionPolicy, availability: SeatAvailability) {
        self.record = record; self.venue = venue; self.prices = prices; self.policy = policy; self.availability = availability
    }

    var layout: VenueLayout { venue.layout }

    /// The compact encoding, computed once per version.
    var encoded: String {
        if let (v, text) = encodedCache, v == availability.version { return text }
        let text = availability.encoded()
        encodedCache = (availability.version, text)
        return text
    }
}

/// The seat inventory: venues, shows, holds, sales. Every change goes through here under one lock,
/// is written to the store in one transaction, then applied to memory and published as an event.
/// Memory is a cache of the store: on start it is rebuilt from the store.
public final class Inventory: @unchecked Sendable {
    let store: SeatStore
    let lock = NSLock()
    var venues: [String: VenueEntry] = [:]
    var shows: [String: ShowState] = [:]
    /// Live holds by token → show id.
    var holdShow: [String: String] = [:]
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
        for record in try store.shows() {
            guard let venue = venues[record.venueID] else { continue }
            let state = try Self.makeState(record: record, venue: venue)
            for claim in try store.claims(show: record.id) where claim.seat < venue.layout.seatCount {
                state.availability.setStatus(claim.status, for: claim.seat)
            }
            state.availability.commit(version: record.version)
            shows[record.id] = state
        }
        for hold in try store.activeHolds() {
            guard let state = shows[hold.showID] else { continue }
            let seats = try store.claims(show: hold.showID).filter { $0.holdID == hold.id }.map(\.seat).sorted()
            state.holds[hold.token] = ActiveHold(record: hold, seats: seats)
            holdShow[hold.token] = hold.showID
        }
    }

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
    public func addVenue(_ layout: VenueLayout) throws(Problem) {
        try locked { () throws(Problem) in
            if venues[layout.id] != nil {
                throw Problem(409, "venue-exists", "Venue exists", detail: "venue \(layout.id) already exists; venues are immutable, create one with a new id")
            }
            let entry = VenueEntry(layout: layout)
            do { try store.insertVenue(id: layout.id, fingerprint: layout.fingerprintHex, layoutJSON: entry.json) } catch {
                throw Problem(500, "store-failed", "Storage failed", detail: "\(error)")
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

    public func addShow(_ new: NewShow) throws(Problem) {
        try locked { () throws(Problem) in
            guard let venue = venues[new.venueID] else { throw Problem.notFound("no venue \(new.venueID)") }
            if shows[new.id] != nil { throw Problem(409, "show-exists", "Show exists", detail: "show \(new.id) already exists") }
            do throws(LayoutError) { _ = try SeatPrices(table: new.prices, layout: venue.layout) } catch { throw Problem.invalidBody(error) }
            let record = ShowRecord(id: new.id, venueID: new.venueID, startsAt: new.startsAt,
                                    pricesJSON: String(decoding: new.prices.jsonBytes(), as: UTF8.self),
                                    policyJSON: String(decoding: new.policy.jsonBytes(), as: UTF8.self), holdSeconds: new.holdSeconds, version: 0)
            do {
                try store.insertShow(record)
                shows[new.id] = try Self.makeState(record: record, venue: venue)
            } catch let e as LayoutError { throw Problem.invalidBody(e) } catch {
                throw Problem(500, "store-failed", "Storage failed", detail: "\(error)")
            }
        }
    }

    public var showIDs: [String] { locked { shows.values.sorted { ($0.record.startsAt, $0.record.id) < ($1.record.startsAt, $1.record.id) }.map(\.record.id) } }
    public var venueIDs: [String] { locked { venues.keys.sorted() } }
}

/// A shared, lock-protected number of milliseconds.
public final class AtomicOffset: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int64 = 0
    public var value: Int64 { lock.lock(); defer { lock.unlock() }; return stored }
    public func advance(by ms: Int64) { lock.lock(); stored += ms; lock.unlock() }
}
