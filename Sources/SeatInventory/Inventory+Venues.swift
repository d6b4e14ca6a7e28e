import SeatDomain
import SeatMap

/// Venues and shows: added, listed.
extension Inventory {
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
        do throws(LayoutError) {
            _ = try SeatPrices(table: new.prices, layout: venue.layout)
            do throws(LayoutError) { try new.policy.check(against: venue.layout) } catch {
                throw LayoutError(problems: error.problems.map { LayoutProblem(path: "policy." + $0.path, message: $0.message) })
            }
        } catch { throw Refusal.invalid(error) }
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
