import SeatDomain
import SeatMap
import SeatSecrets

/// A season holder's night: offered for sale (`release`: the seat of that show goes back on sale, no
/// money moves: reports count the release at 0) and taken back while nobody bought it (`reclaim`: a
/// sale of the seat to the season's order again, at 0). The season's report says what each night has.
extension Inventory {
    /// What a season's sales hold in one show: each season sale with its seats now, and the seats its
    /// nights released (not reclaimed since). Read from the store: call off the lock.
    func seasonSales(_ season: SeasonRecord, show: String) throws(Refusal) -> (
        sales: [(record: HoldRecord, seats: [Int])], released: [(record: HoldRecord, seat: Int)], releases: [RefundRecord]
    ) {
        let all: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord]
        do {
            all = try store.sales(show: show).filter { Self.seasonID(ofHold: $0.record.id) == season.id }
            refunds = try store.refunds(holdIDs: all.map(\.record.id))
        } catch { throw Self.storeRefusal(error) }
        let held = Set(all.flatMap(\.seats))
        let byID = Dictionary(all.map { ($0.record.id, $0.record) }, uniquingKeysWith: { a, _ in a })
        let released = refunds.filter { $0.isSeasonRelease && !held.contains($0.seat) }.compactMap { r in byID[r.holdID].map { ($0, r.seat) } }
        // One entry a seat: released twice (reclaimed between) is released once now.
        var seen = Set<Int>()
        return (all, released.filter { seen.insert($0.1).inserted }, refunds.filter(\.isSeasonRelease))
    }

    /// Who may act on a season's night: the box office, or the buyer with the code of the season hold
    /// they confirmed (a 404 for a code of no sale of this order, as for an order).
    static func checkSeasonActor(_ actor: OrderActor, _ record: HoldRecord, sales: [(record: HoldRecord, seats: [Int])]) throws(Refusal) {
        guard case .buyer(let code) = actor else { return }
        let digest = seasonPartDigest(code, show: record.showID)
        guard sales.contains(where: { $0.record.orderRef == record.orderRef && $0.record.tokenDigest == digest }) || record.tokenDigest == digest else {
            throw Refusal(.notFound, detail: "no season seat of this code")
        }
    }

    func seasonShow(_ season: SeasonRecord, _ show: String) throws(Refusal) {
        guard season.shows.contains(show) else { throw Refusal.invalid(path: "show", "show \(show) is not in season \(season.id) (\(season.name))") }
    }

    /// Offers one night of a season seat for sale: the seat of `show` goes back on sale.
    package func beginReleaseSeasonNight(season id: String, seat seatID: String, show: String, as actor: OrderActor) throws(Refusal) -> CommitTicket {
        let season = try season(id: id)
        try seasonShow(season, show)
        let (sales, _, _) = try seasonSales(season, show: show)
        return try lockedWhenFresh(show: show) { (m: Memory) throws(Refusal) -> CommitTicket in
            let state = try state(forShow: show, in: m)
            guard let seat = state.layout.index(ofSeatID: seatID) else { throw Refusal(.unknownSeats, detail: "no seat \(seatID) in venue \(state.layout.id)") }
            guard let sale = sales.first(where: { $0.seats.contains(seat) }) else {
                throw Refusal(.notInOrder, detail: "seat \(seatID) of show \(show) is not season \(season.id)'s (never sold to it, or released already)")
            }
            try Self.checkSeasonActor(actor, sale.record, sales: sales)
            if let starts = state.startsAtMilliseconds, starts <= clock() {
                throw Refusal(.showStarted, detail: "show \(show) started at \(state.record.startsAt): its night can no longer be offered")
            }
            guard state.availability[seat] == .sold else {
                throw Refusal(.showChanged, detail: "seat \(seatID) of show \(show) changed meanwhile; reload and try again")
            }
            let refund = RefundRecord(
                holdID: sale.record.id, seat: seat, refundedAt: clock(), reason: RefundRecord.seasonRelease, operatorName: actor.name)
            metrics.count("season_nights_released")
            return try apply(
                state, in: m, changes: [SeatChange(seat: seat, status: .available)], holds: [], durable: true, refunds: [refund],
                log: LogEntry(action: "refund", operatorName: actor.name, reason: RefundRecord.seasonRelease, orderRef: sale.record.orderRef))
        }
    }

    /// Takes a released night back while its seat is free: a 409 naming the seat when someone holds or
    /// bought it meanwhile.
    package func beginReclaimSeasonNight(season id: String, seat seatID: String, show: String, as actor: OrderActor) throws(Refusal) -> CommitTicket {
        let season = try season(id: id)
        try seasonShow(season, show)
        let (sales, released, _) = try seasonSales(season, show: show)
        let now = clock()
        let (random, token) = Self.randomIDAndToken(prefix: idPrefix(show: show, now))
        return try lockedWhenFresh(show: show) { (m: Memory) throws(Refusal) -> CommitTicket in
            let state = try state(forShow: show, in: m)
            guard let seat = state.layout.index(ofSeatID: seatID) else { throw Refusal(.unknownSeats, detail: "no seat \(seatID) in venue \(state.layout.id)") }
            guard let (first, _) = released.first(where: { $0.seat == seat }) else {
                throw Refusal(.notInOrder, detail: "seat \(seatID) of show \(show) is no released night of season \(season.id)")
            }
            try Self.checkSeasonActor(actor, first, sales: sales)
            try checkNotCancelled(state)
            try checkFree([seat], in: state, own: [])
            var pricing = HoldPricing(stored: first.prices)
            pricing.overrides[seat] = 0
            let record = HoldRecord(
                id: "sp_" + random + "@" + season.key, tokenDigest: Secrets.tokenDigest(token), showID: show, state: .confirmed, expiresAt: now,
                extended: false, orderRef: first.orderRef, wheelchair: false, createdAt: now, kind: first.kind,
                reason: "season: \(season.name); night reclaimed",
                operatorName: actor.isBuyer ? first.operatorName : actor.name, payment: first.payment, prices: pricing.stored(in: state.prices.table))
            metrics.count("season_nights_reclaimed")
            return try apply(
                state, in: m, changes: [SeatChange(seat: seat, status: .sold)], insert: [Claim(seat: seat, status: .sold, holdID: record.id)],
                holds: [record], durable: true,
                log: LogEntry(action: "sell", holdID: record.id, operatorName: actor.name, reason: record.reason, orderRef: first.orderRef))
        }
    }

    /// A season's report: each show's season seats, nights released and how many of those sold again,
    /// the season's orders and what they took.
    public struct SeasonReport: Sendable {
        public struct Night: Sendable {
            public var showID: String
            public var startsAt: String
            /// Seats (and places) the season's orders have in the show now.
            public var seasonSeats: Int
            /// Nights offered for sale and not taken back.
            public var released: Int
            /// Of those, seats someone else bought.
            public var resold: Int
            public var taken: Money
        }
        public var season: SeasonView
        public var orders: Int
        public var nights: [Night]
        public var taken: Money
    }

    public func seasonReport(season id: String) throws(Refusal) -> SeasonReport {
        let view = try seasonView(id: id)
        var read: [(show: String, sales: [(record: HoldRecord, seats: [Int])], released: [(record: HoldRecord, seat: Int)], releases: [RefundRecord])] = []
        for show in view.record.shows {
            let (sales, released, releases) = try seasonSales(view.record, show: show)
            read.append((show, sales, released, releases))
        }
        return locked { m in
            var nights: [SeasonReport.Night] = [], orders = Set<String>()
            var taken: Money?
            for (show, sales, released, releases) in read {
                guard let state = m.shows[show] else { continue }
                var money = Money(zeroOf: state.prices.table)
                for sale in sales {
                    if let ref = sale.record.orderRef { orders.insert(ref) }
                    // A night released kept its money: the sale took it.
                    let gone = releases.filter { $0.holdID == sale.record.id }.map(\.seat)
                    money += state.total(of: sale.seats + gone, HoldPricing(stored: sale.record.prices))
                }
                let resold = released.filter { state.committed[$0.seat] == .sold }.count
                nights.append(
                    .init(
                        showID: show, startsAt: state.record.startsAt, seasonSeats: sales.reduce(0) { $0 + $1.seats.count }, released: released.count,
                        resold: resold, taken: money))
                taken = taken.map { $0 + money } ?? money
            }
            return SeasonReport(season: view, orders: orders.count, nights: nights, taken: taken ?? Money(0, currency: view.currency, digits: 2))
        }
    }
}
