import SeatDomain
import SeatMap

/// Seasons (#53): shows sold together, the same seat (or as many places of an area) in every one.
/// A season sale is a sale of each show, written all or none (`BatchWriter.enqueue(together:)`): the
/// store's one claim a seat refuses the whole batch when any show's seat went to someone else, so a
/// season races single-show sales and wins everywhere or nowhere. Its sales' ids are `sp_…@KEY`
/// (`SeasonRecord.key`): every instance, and every restart, tells a season's sale from another's
/// without another column. Its shows are in one venue, one currency, and on one shard.
extension Inventory {
    public struct NewSeason: Sendable {
        public var name: String
        public var shows: [String]
        /// The season it is a part of: its shows must be some of that season's.
        public var parent: String?
        public init(name: String, shows: [String], parent: String? = nil) { self.name = name; self.shows = shows; self.parent = parent }
    }

    /// A season with what the box office needs to sell it: its venue and currency.
    public struct SeasonView: Sendable {
        public var record: SeasonRecord
        public var venueID: String
        public var currency: String
        /// Each show's start, in the season's order.
        public var startsAt: [String]
    }

    /// The most shows a season has: a year of weekly shows, twice.
    public static let seasonShowLimit = 104

    /// The season of a season sale's id (`sp_…@KEY` → `se_KEY`), nil for any other sale.
    public static func seasonID(ofHold id: String) -> String? {
        guard id.hasPrefix("sp_"), let at = id.firstIndex(of: "@") else { return nil }
        return "se_" + id[id.index(after: at)...]
    }

    /// Makes a season: a 422 naming the member for a show that is not there, of another venue or currency,
    /// or on another shard than the first; recorded in each show's log.
    package func createSeason(_ new: NewSeason, by operatorName: String) throws(Refusal) -> SeasonView {
        let name = new.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 100 else { throw Refusal.invalid(path: "name", "a season needs a name of 1 to 100 characters") }
        guard new.shows.count >= 2 else { throw Refusal.invalid(path: "shows", "a season has two shows or more") }
        guard new.shows.count <= Self.seasonShowLimit else {
            throw Refusal.invalid(path: "shows", "a season has at most \(Self.seasonShowLimit) shows, not \(new.shows.count)")
        }
        var seen = Set<String>()
        for (k, id) in new.shows.enumerated() where !seen.insert(id).inserted { throw Refusal.invalid(path: "shows[\(k)]", "show \(id) is named twice") }
        let parent = try new.parent.map { id throws(Refusal) -> SeasonRecord in
            do { return try season(id: id) } catch { throw Refusal.invalid(path: "parent", "no season \(id)") }
        }
        if let parent {
            for (k, id) in new.shows.enumerated() where !parent.shows.contains(id) {
                throw Refusal.invalid(path: "shows[\(k)]", "show \(id) is not in season \(parent.id) (\(parent.name))")
            }
        }
        try followShows(new.shows)
        let now = clock()
        let (random, _) = Self.randomIDAndToken(prefix: idPrefix(show: new.shows[0], now))
        let (record, view) = try locked { (m: Memory) throws(Refusal) -> (SeasonRecord, SeasonView) in
            var states: [ShowState] = []
            for (k, id) in new.shows.enumerated() {
                guard let state = m.shows[id] else { throw Refusal.invalid(path: "shows[\(k)]", "no show \(id)") }
                if state.record.cancelledAt != nil { throw Refusal.invalid(path: "shows[\(k)]", "show \(id) was cancelled") }
                if let first = states.first {
                    if state.record.venueID != first.record.venueID {
                        throw Refusal.invalid(
                            path: "shows[\(k)]", "show \(id) is in venue \(state.record.venueID), not \(first.record.venueID): a season's seat is one seat")
                    }
                    if state.prices.table.currency != first.prices.table.currency {
                        throw Refusal.invalid(
                            path: "shows[\(k)]",
                            "show \(id) is sold in \(state.prices.table.currency), not \(first.prices.table.currency): a season has one currency")
                    }
                    if let placement, let a = placement.shard(ofShow: first.record.id), let b = placement.shard(ofShow: id), a != b {
                        throw Refusal(
                            .acrossShards,
                            detail:
                                "shows[\(k)]: show \(id) is kept on shard \(b) and show \(first.record.id) on shard \(a): a season's sales are one change; move the shows to one shard"
                        )
                    }
                }
                states.append(state)
            }
            // Earliest first: how a season holder reads their nights.
            let ordered = states.sorted { ($0.startsAtMilliseconds ?? 0, $0.record.id) < ($1.startsAtMilliseconds ?? 0, $1.record.id) }
            let record = SeasonRecord(
                id: "se_" + random, name: name, shows: ordered.map(\.record.id), parent: parent?.id, createdAt: now, operatorName: operatorName)
            return (
                record,
                SeasonView(
                    record: record, venueID: ordered[0].record.venueID, currency: ordered[0].prices.table.currency, startsAt: ordered.map(\.record.startsAt))
            )
        }
        guard let seasons = store.seasons else { throw Refusal(.storeFailed, detail: "this store keeps no seasons") }
        do { try seasons.insertSeason(record) } catch { throw Self.storeRefusal(error) }
        // In each show's log (a change of no seat): the audit trail says who made the season.
        let tickets = locked { m -> [CommitTicket] in
            m.seasons[record.id] = record
            let log = LogEntry(action: "season", holdID: record.id, operatorName: operatorName, reason: name)
            let staged = record.shows.compactMap { id in m.shows[id].map { stage($0, in: m, changes: [], holds: [], log: log) } }
            return writer.enqueue(together: staged)
        }
        for t in tickets { try wait(t) }
        metrics.count("seasons_made")
        return view
    }

    /// Every season, oldest first, as the store has them.
    public func seasonList() throws(Refusal) -> [SeasonView] {
        guard let seasons = store.seasons else { return [] }
        let all: [SeasonRecord]
        do { all = try seasons.allSeasons() } catch { throw Self.storeRefusal(error) }
        try followShows(Array(Set(all.flatMap(\.shows))))
        return locked { m in
            all.map { r in
                m.seasons[r.id] = r
                return seasonView(r, in: m)
            }
        }
    }

    /// One season (memory, else the store): a 404 for none.
    public func season(id: String) throws(Refusal) -> SeasonRecord {
        if let known = locked({ m in m.seasons[id] }) { return known }
        let read: SeasonRecord?
        do { read = try store.seasons?.season(id: id) } catch { throw Self.storeRefusal(error) }
        guard let read else { throw Refusal(.notFound, detail: "no season \(id)") }
        locked { m in m.seasons[id] = read }
        return read
    }

    public func seasonView(id: String) throws(Refusal) -> SeasonView {
        let record = try season(id: id)
        try followShows(record.shows)
        return locked { m in seasonView(record, in: m) }
    }

    func seasonView(_ r: SeasonRecord, in m: Memory) -> SeasonView {
        let states = r.shows.compactMap { m.shows[$0] }
        return SeasonView(
            record: r, venueID: states.first?.record.venueID ?? "", currency: states.first?.prices.table.currency ?? "",
            startsAt: states.map(\.record.startsAt))
    }

    /// Shows another instance made are read before a season names them (a 404 otherwise).
    func followShows(_ ids: [String]) throws(Refusal) {
        let unknown = locked { m in ids.filter { m.shows[$0] == nil } }
        guard !unknown.isEmpty, mode.followsOthers else { return }
        do { try followStore(only: Set(unknown)) } catch { throw Self.storeRefusal(error) }
    }
}
