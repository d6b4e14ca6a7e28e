import SeatDomain
import SeatMap
import SeatSecrets

/// A season held and sold: one hold (or sale) a show, all written together. A buyer's season hold has
/// one token; each show's hold is found by the digest of the token and the show's id, so the store
/// keeps no token and a copy of it opens nothing.
extension Inventory {
    /// A season hold or sale as the API shows it: each show's part.
    public struct SeasonHoldView: Sendable {
        public var seasonID: String
        public var token: String?
        public var parts: [HoldView]
        public var total: Money
        public var expiresAt: Int64
        public var state: HoldState
        public var orderRef: String?
    }

    /// What a season sale takes in each show: the seats named (the same in every show) and as many
    /// places of each area as asked (chosen show by show: places of an area are alike).
    public struct SeasonSeats: Sendable {
        public var seatIDs: [String]
        public var places: [(area: String, count: Int)]
        public init(seatIDs: [String], places: [(area: String, count: Int)] = []) { self.seatIDs = seatIDs; self.places = places }
    }

    /// The token digest of a season hold's part in `show`.
    static func seasonPartDigest(_ token: String, show: String) -> String { Secrets.tokenDigest(token + "@" + show) }

    /// The season's shows still to come (a show that started is not sold any more), each with the seats
    /// the season takes there, checked free; a refusal names the show. Called under the lock.
    func seasonSeats(
        _ season: SeasonRecord, _ asked: SeasonSeats, buyer: Bool, force: Bool, in m: Memory
    ) throws(Refusal) -> [(state: ShowState, seats: [SeatIndex], forced: [String])] {
        guard !asked.seatIDs.isEmpty || asked.places.contains(where: { $0.count > 0 }) else {
            throw Refusal(.noSeats, detail: "a season sale needs at least one seat or place")
        }
        var out: [(state: ShowState, seats: [SeatIndex], forced: [String])] = []
        let now = clock()
        for id in season.shows {
            let state = try state(forShow: id, in: m)
            if let starts = state.startsAtMilliseconds, starts <= now { continue }
            do throws(Refusal) {
                if buyer { try checkOnSale(state) } else { try checkNotCancelled(state) }
                let named = try resolve(asked.seatIDs, in: state.layout)
                try checkFree(named, in: state, own: [])
                let seats = Set(named + (try choosePlaces(asked.places, in: state, besides: named))).sorted()
                var forced: [String] = []
                if buyer {
                    try checkRules(seats, in: state, own: [], wheelchair: false)
                } else {
                    forced = try counterRules(seats, in: state, own: [], force: force)
                }
                out.append((state, seats, forced))
            } catch {
                var named = error
                named.detail = "show \(id): " + error.detail
                throw named
            }
        }
        guard !out.isEmpty else { throw Refusal(.showStarted, detail: "every show of season \(season.id) has started: nothing is left to sell") }
        return out
    }

    /// Holds the same seats in every show of the season still to come, all or none, under one token.
    package func beginSeasonHold(season id: String, _ asked: SeasonSeats) throws(Refusal) -> (SeasonHoldView, [CommitTicket]) {
        let season = try season(id: id)
        let now = clock()
        let (_, token) = Self.randomIDAndToken(prefix: Self.timePrefix(now))
        let ids = season.shows.map { show in Self.randomIDAndToken(prefix: idPrefix(show: show, now)).id }
        return try lockedWhenFresh(shows: season.shows) { (m: Memory) throws(Refusal) -> (SeasonHoldView, [CommitTicket]) in
            let taken = try seasonSeats(season, asked, buyer: true, force: false, in: m)
            let expires = now + Int64(taken.map(\.state.record.holdSeconds).min() ?? 600) * 1000
            var staged: [StoreCommit] = [], parts: [HoldView] = []
            for (k, (state, seats, _)) in taken.enumerated() {
                let record = HoldRecord(
                    id: "sp_" + ids[k] + "@" + season.key, tokenDigest: Self.seasonPartDigest(token, show: state.record.id), showID: state.record.id,
                    state: .active, expiresAt: expires, extended: false, orderRef: nil, wheelchair: false, createdAt: now, kind: .buyer,
                    reason: "season: " + season.name, prices: state.currentPricing.stored(in: state.prices.table))
                staged.append(
                    stage(
                        state, in: m, changes: seats.map { SeatChange(seat: $0, status: .held) },
                        insert: seats.map { Claim(seat: $0, status: .held, holdID: record.id) }, holds: [record],
                        log: LogEntry(action: "hold", holdID: record.id, reason: record.reason)))
                let hold = ActiveHold(record: record, seats: seats)
                state.holds[record.tokenDigest] = hold
                m.holdShow[record.tokenDigest] = state.record.id
                parts.append(view(hold, in: state, token: token))
            }
            metrics.count("season_holds")
            return (seasonHoldView(season.id, token: token, parts), writer.enqueue(together: staged))
        }
    }

    func seasonHoldView(_ id: String, token: String?, _ parts: [HoldView]) -> SeasonHoldView {
        let total = parts.dropFirst().reduce(parts[0].total) { $0 + $1.total }
        return SeasonHoldView(
            seasonID: id, token: token, parts: parts, total: total, expiresAt: parts.map(\.expiresAt).min() ?? 0, state: parts[0].state,
            orderRef: parts[0].orderRef)
    }

    /// A season hold's live parts, each read from the store first when it is shared; a 404 for a token
    /// of no part, a 410 when they ended.
    func seasonParts(_ season: SeasonRecord, token: String, in m: Memory, snapshots: [HoldSnapshot?]) throws(Refusal) -> [(ShowState, ActiveHold)] {
        for s in snapshots { apply(s, in: m) }
        var out: [(ShowState, ActiveHold)] = []
        for show in season.shows {
            let digest = Self.seasonPartDigest(token, show: show)
            guard m.holdShow[digest] != nil || m.endedHolds[digest] != nil else { continue }
            out.append(try activeHold(digest, snapshot: nil, in: m))
        }
        guard !out.isEmpty else { throw Refusal(.notFound, detail: "no hold of season \(season.id) with this token") }
        return out
    }

    func seasonSnapshots(_ season: SeasonRecord, token: String) throws(Refusal) -> [HoldSnapshot?] {
        guard mode.followsOthers else { return [] }
        var out: [HoldSnapshot?] = []
        for show in season.shows { out.append(try readHold(tokenDigest: Self.seasonPartDigest(token, show: show))) }
        return out
    }

    public func seasonHold(season id: String, token: String) throws(Refusal) -> SeasonHoldView {
        let season = try season(id: id)
        let snapshots = try seasonSnapshots(season, token: token)
        return try locked { (m: Memory) throws(Refusal) -> SeasonHoldView in
            let parts = try seasonParts(season, token: token, in: m, snapshots: snapshots)
            return seasonHoldView(id, token: token, parts.map { view($0.1, in: $0.0, token: token) })
        }
    }

    /// Lets a season hold go: every part, together.
    package func beginReleaseSeasonHold(season id: String, token: String) throws(Refusal) -> [CommitTicket] {
        let season = try season(id: id)
        let snapshots = try seasonSnapshots(season, token: token)
        return try locked { (m: Memory) throws(Refusal) -> [CommitTicket] in
            let parts = try seasonParts(season, token: token, in: m, snapshots: snapshots)
            var staged: [StoreCommit] = []
            for (state, hold) in parts {
                var record = hold.record
                record.state = .released
                staged.append(
                    stage(
                        state, in: m, changes: hold.seats.map { SeatChange(seat: $0, status: .available) }, delete: hold.seats, holds: [record],
                        log: LogEntry(action: "release", holdID: record.id)))
                m.ended(record, in: state)
            }
            return writer.enqueue(together: staged)
        }
    }

    /// Sells a season hold's parts under one order, together and durably.
    package func beginConfirmSeasonHold(season id: String, token: String, orderRef: String) throws(Refusal) -> (SeasonHoldView, [CommitTicket]) {
        let season = try season(id: id)
        let snapshots = try seasonSnapshots(season, token: token)
        return try locked { (m: Memory) throws(Refusal) -> (SeasonHoldView, [CommitTicket]) in
            let parts = try seasonParts(season, token: token, in: m, snapshots: snapshots)
            var staged: [StoreCommit] = [], views: [HoldView] = []
            for (state, hold) in parts {
                var record = hold.record
                record.state = .confirmed
                record.orderRef = orderRef
                staged.append(
                    stage(
                        state, in: m, changes: hold.seats.map { SeatChange(seat: $0, status: .sold) }, sell: hold.seats, holds: [record], durable: true,
                        log: LogEntry(action: "confirm", holdID: record.id, reason: record.reason, orderRef: orderRef)))
                m.ended(record, in: state)
                views.append(view(ActiveHold(record: record, seats: hold.seats), in: state, token: token))
            }
            metrics.count("season_confirmations")
            return (seasonHoldView(id, token: token, views), writer.enqueue(together: staged))
        }
    }

    /// The box office sells a season at the counter: the same seats in every show still to come, under
    /// one order, together and durably (the buyer's rules a warning `force` passes, recorded).
    package func beginSellSeason(
        season id: String, _ asked: SeasonSeats, orderRef: String, payment: String, force: Bool, by operatorName: String
    ) throws(Refusal) -> (OrderView, [CommitTicket]) {
        let season = try season(id: id)
        let existing: [(record: HoldRecord, seats: [Int])]
        do { existing = try store.orders(orderRef: orderRef) } catch { throw Self.storeRefusal(error) }
        let now = clock()
        let ids = season.shows.map { show in Self.randomIDAndToken(prefix: idPrefix(show: show, now)) }
        return try lockedWhenFresh(shows: season.shows) { (m: Memory) throws(Refusal) -> (OrderView, [CommitTicket]) in
            let pending = m.shows.values.contains { s in s.holds.values.contains { $0.record.orderRef == orderRef } }
            if !existing.isEmpty || pending || m.recentOrders.contains(orderRef) {
                throw Refusal(.orderExists, detail: "order \(orderRef) already exists: use another order reference")
            }
            let taken = try seasonSeats(season, asked, buyer: false, force: force, in: m)
            var staged: [StoreCommit] = [], parts: [OrderView.Part] = []
            for (k, (state, seats, forced)) in taken.enumerated() {
                var reason = "season: " + season.name
                if !forced.isEmpty { reason += "; forced past " + forced.joined(separator: ", ") }
                let record = HoldRecord(
                    id: "sp_" + ids[k].id + "@" + season.key, tokenDigest: Secrets.tokenDigest(ids[k].token), showID: state.record.id, state: .confirmed,
                    expiresAt: now, extended: false, orderRef: orderRef, wheelchair: false, createdAt: now, kind: .counter, reason: reason,
                    operatorName: operatorName, payment: payment, prices: state.currentPricing.stored(in: state.prices.table))
                staged.append(
                    stage(
                        state, in: m, changes: seats.map { SeatChange(seat: $0, status: .sold) },
                        insert: seats.map { Claim(seat: $0, status: .sold, holdID: record.id) }, holds: [record], durable: true,
                        log: LogEntry(action: "sell", holdID: record.id, operatorName: operatorName, reason: reason, orderRef: orderRef)))
                parts.append(orderPart(record, seats: seats, in: state))
            }
            m.recentOrders.insert(orderRef)
            metrics.count("season_sales")
            return (OrderView(orderRef: orderRef, parts: parts), writer.enqueue(together: staged))
        }
    }
}
