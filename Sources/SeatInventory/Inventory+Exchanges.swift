import Foundation
import SeatDomain
import SeatMap
import SeatSecrets

/// Who changes an order after the sale: the box office (any time before the show ends, past the seat
/// rules with `force`, no fee), or the buyer with the order's code (the code is the token of the hold
/// they confirmed), within the show's `AfterSalePolicy`.
public enum OrderActor: Sendable {
    case boxOffice(operatorName: String)
    case buyer(code: String)

    public var name: String {
        switch self {
        case .boxOffice(let name): name
        case .buyer: "buyer"
        }
    }
}

/// What an exchange did (`Inventory.exchange`).
public struct ExchangeView: Sendable {
    /// The seats given back (each at the price it sold for) and the sale they came from.
    public var from: OrderView.Part
    /// The sale made in their place.
    public var to: OrderView.Part
    public var fee: Money
    /// `to`'s total and the fee, less `from`'s: what the buyer pays (negative: gets back).
    public var difference: Money
    public var order: OrderView
}

/// Exchanges: seats of an order given back and others sold in their place in one step. Within one
/// show it is one change; between two shows two changes the store writes all or none
/// (`StoreCommit.allOrNoneWithNext`), so a race with a buyer for the new seats can never leave the order
/// with both or with neither.
extension Inventory {
    public struct Exchange: Sendable {
        public enum Target: Sendable {
            case seats([String])
            case best(Int)
        }
        /// The seats given back (nil: every seat the order, or the buyer's part of it, still has).
        public var seatIDs: [String]?
        public var toShow: String
        public var target: Target
        /// How the difference is settled (default: as the sale it replaces was paid).
        public var payment: String?
        public var reason: String?
        public var force: Bool
        /// The waiting room's entry that let the buyer into the new show, while its room is on: the
        /// exchange is that admission's purchase (an exchange once walked round the room).
        public var admission: String?
        /// Only this show's seats of the order are given back (a season's night: its seat ids are in every show).
        public var fromShow: String?
        public init(
            seatIDs: [String]?, toShow: String, target: Target, payment: String? = nil, reason: String? = nil, force: Bool = false,
            admission: String? = nil, fromShow: String? = nil
        ) {
            self.seatIDs = seatIDs; self.toShow = toShow; self.target = target; self.payment = payment; self.reason = reason; self.force = force
            self.admission = admission; self.fromShow = fromShow
        }
    }

    /// `beginExchange` to the end, settling races with other instances as `refund` does
    /// (`settlingOrderRaces`: a new seat someone else took meanwhile is then a 409 naming it).
    /// Blocks: call off the inventory lock.
    package func exchange(
        orderRef: String, _ x: Exchange, as actor: OrderActor, idempotency: IdempotentRequest<ExchangeView>? = nil
    ) throws(Refusal) -> Answer<ExchangeView> {
        try settlingOrderRaces(Refusal(.showChanged, detail: "order \(orderRef) kept changing while it was exchanged; reload it and try again")) {
            () throws(Refusal) -> (Answer<ExchangeView>, [CommitTicket]) in
            try beginExchange(orderRef: orderRef, x, as: actor, idempotency: idempotency)
        }
    }

    /// Decides the exchange under the lock and queues its change(s); the caller waits for them.
    package func beginExchange(
        orderRef: String, _ x: Exchange, as actor: OrderActor, idempotency: IdempotentRequest<ExchangeView>? = nil
    ) throws(Refusal) -> (Answer<ExchangeView>, [CommitTicket]) {
        let stored = try storedAnswer(idempotency)
        for _ in 0..<5 {
            let before: [String: UInt64] = locked { m in m.shows.mapValues { $0.availability.version } }
            let (rows, earlier) = try readOrderFollowing(orderRef, also: x.toShow)
            let paid: [String: (payment: PaymentRecord, left: Int64)]
            do { paid = try paymentsToRefund(rows.map(\.record)) } catch { throw Self.storeRefusal(error) }
            let shows = Set(rows.map(\.record.showID) + [x.toShow])
            let done = try lockedWhenFresh(shows: shows) { (m: Memory) throws(Refusal) -> (Answer<ExchangeView>, [CommitTicket])? in
                if let body = try replay(idempotency, stored: stored, in: m) { return (.replayed(body: body), []) }
                guard rows.allSatisfy({ row in m.shows[row.record.showID].map { $0.soldFreedVersion <= before[row.record.showID] ?? 0 } ?? true })
                else { return nil }
                return try decideExchange(
                    orderRef: orderRef, x, as: actor, rows: rows, earlier: earlier, paid: paid, idempotency: idempotency, in: m)
            }
            if let done { return done }
        }
        var changing = Refusal(.showChanged, detail: "order \(orderRef) kept changing while it was read; reload it and try again")
        changing.retryInside = true
        throw changing
    }

    /// The order's rows and refunds from the store, with its shows (and `also`) caught up to the store
    /// first: another instance's sale a moment ago reads as part of the order. A 404 for no such order.
    func readOrderFollowing(_ orderRef: String, also: String? = nil) throws(Refusal) -> (
        rows: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord]
    ) {
        let (rows, refunds) = try storedOrder(orderRef)
        do { try followStore(only: Set(rows.map(\.record.showID) + (also.map { [$0] } ?? []))) } catch { throw Self.storeRefusal(error) }
        return (rows, refunds)
    }

    /// The parts of the order a buyer's code reaches: the sale whose hold token it is, and every sale
    /// exchanges made from it since. A 404 (the same as for no such order) when the code is not one
    /// of the order's: a code found by guessing tells nothing.
    static func buyerScope(code: String, rows: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord], orderRef: String) throws(Refusal)
        -> Set<String>
    {
        let digest = Secrets.tokenDigest(code)
        guard let own = rows.first(where: { $0.record.kind == .buyer && $0.record.tokenDigest == digest }) else {
            throw Refusal(.notFound, detail: "no order \(orderRef) with this code")
        }
        var scope: Set<String> = [own.record.id], grew = true
        while grew {
            grew = false
            for r in refunds where scope.contains(r.holdID) { if let to = r.exchangedTo, scope.insert(to).inserted { grew = true } }
        }
        return scope
    }

    /// How many exchanges made the parts in `scope` (each made one sale `x_…`).
    static func exchangesMade(_ scope: Set<String>) -> Int { scope.filter { $0.hasPrefix(RefundRecord.exchangePrefix) }.count }

    /// The policy's window: open until `minutes` before the start of `state`'s show.
    func checkWindow(_ state: ShowState, minutes: Int, what: String) throws(Refusal) {
        guard let starts = state.startsAtMilliseconds else { return }
        let closes = starts - Int64(minutes) * 60_000
        guard clock() >= closes else { return }
        throw Refusal(
            .afterSaleClosed,
            detail: "\(what) for show \(state.record.id) closed at \(Self.isoTime(closes)), \(minutes) minutes before it starts; the box office can still help")
    }
}

extension Inventory {
    /// The exchange decided: the old seats refunded to the new sale (`returnedTo` names it, so their
    /// tickets are revoked as exchanged), the new sale made at the new show's prices with the fee, and
    /// both changes queued (one when the show is the same). Called under the lock.
    func makeExchange(
        orderRef: String, _ x: Exchange, as actor: OrderActor, chosen: [(record: HoldRecord, seat: Int)], from: ShowState, to: ShowState,
        seats: [SeatIndex], forced: [String], fee: Decimal, rows: [(record: HoldRecord, seats: [Int])], earlier: [RefundRecord],
        paid: [String: (payment: PaymentRecord, left: Int64)] = [:], idempotency: IdempotentRequest<ExchangeView>?, now: Int64, in m: Memory
    ) throws(Refusal) -> (Answer<ExchangeView>, [CommitTicket]) {
        // The two changes are written all or none in one transaction: never across two databases.
        if let placement, let a = placement.shard(ofShow: from.record.id), let b = placement.shard(ofShow: to.record.id), a != b {
            throw Refusal(
                .acrossShards,
                detail:
                    "show \(from.record.id) is kept on shard \(a) and show \(to.record.id) on shard \(b): an exchange between them cannot be one change; refund and sell instead"
            )
        }
        let (random, token) = Self.randomIDAndToken(prefix: idPrefix(show: to.record.id, now))
        let first = chosen[0].record
        let oldNames = chosen.map { from.layout.seatID($0.seat) }.joined(separator: ", ")
        var why = "exchange of \(oldNames) (show \(from.record.id))"
        if let reason = x.reason { why += ": \(reason)" }
        if !forced.isEmpty { why += "; forced past " + forced.joined(separator: ", ") }
        var pricing = to.currentPricing
        pricing.fee = fee == 0 ? nil : PriceTable.round(fee, minorUnits: to.prices.table.minorUnits)
        let record = HoldRecord(
            id: RefundRecord.exchangePrefix + random, tokenDigest: Secrets.tokenDigest(token), showID: to.record.id, state: .confirmed, expiresAt: now,
            extended: false, orderRef: orderRef, wheelchair: false, createdAt: now, kind: actor.isBuyer ? .buyer : .counter, reason: why,
            operatorName: actor.isBuyer ? nil : actor.name,
            // A buyer pays a difference online, whatever paid the first sale.
            payment: actor.isBuyer ? "online" : x.payment ?? first.payment ?? (first.kind == .buyer ? "online" : "cash"),
            prices: pricing.stored(in: to.prices.table), admission: x.admission)
        let refunds = chosen.map {
            RefundRecord(
                holdID: $0.record.id, seat: $0.seat, refundedAt: now, reason: "exchanged" + (x.reason.map { ": \($0)" } ?? ""),
                operatorName: actor.name, returnedTo: record.id)
        }
        // The answer, and what a retry with the same key gets: the order as it will be.
        let gone = Set(chosen.map { "\($0.record.id)#\($0.seat)" })
        let after = rows.map { row in (row.record, row.seats.filter { !gone.contains("\(row.record.id)#\($0)") }) } + [(record, seats)]
        let order = orderView(orderRef, rows: after, refunds: earlier + refunds, in: m)
        let old = chosen.map { (id: from.layout.seatID($0.seat), price: from.money(of: $0.seat, HoldPricing(stored: $0.record.prices))) }
        let oldTotal = old.reduce(Decimal(0)) { $0 + $1.price.amount }
        let newPart = orderPart(record, seats: seats, in: to, exchangedFrom: first.id)
        let table = to.prices.table
        var fromPart = orderPart(first, seats: chosen.map(\.seat), in: from)
        fromPart.seats = old
        fromPart.total = Money(oldTotal, of: from.prices.table)
        let difference = newPart.total.amount + (pricing.fee ?? 0) - oldTotal
        // Never a sale without its payment: a buyer whose new seats cost more pays at a checkout, which an
        // exchange is not yet; with online payments on, the box office takes the difference.
        if actor.isBuyer, difference > 0, paymentQuery.withLock({ $0 != nil }) {
            throw Refusal(
                .paymentRequired,
                detail:
                    "the new seats cost \(Money(difference, of: table).description) \(table.currency) more, which is paid at the box office; choose seats of the same price or less"
            )
        }
        // Less: the difference goes back the way the first sale was paid (pending until its provider takes it).
        var moneyBack: [PaymentRefundRecord] = []
        if difference < 0, let (payment, left) = paid[first.id] {
            let units = min(left, NSDecimalNumber(decimal: -difference * pow(10, table.minorUnits)).int64Value)
            if units > 0 {
                moneyBack.append(
                    PaymentRefundRecord(
                        id: "rf_" + random, paymentID: payment.id, holdID: first.id, showID: payment.showID, provider: payment.provider, amount: units,
                        currency: payment.currency, state: .pending, reason: "exchange to cheaper seats", createdAt: now, updatedAt: now))
            }
        }
        let view = ExchangeView(
            from: fromPart, to: newPart, fee: Money(pricing.fee ?? 0, of: table), difference: Money(difference, of: table), order: order)
        let kept = idempotency.map { $0.kept(view) }
        let log = LogEntry(action: "exchange", holdID: record.id, operatorName: actor.name, reason: why, orderRef: orderRef)
        // Seats given back that the show's waitlist wants go to its pool, not to the public.
        let pooled = waitlistPool(for: chosen.map(\.seat).filter { !seats.contains($0) || from !== to }, in: from, now: now)
        let toPool = Set(pooled?.seats ?? [])
        let poolClaims = (pooled?.seats ?? []).map { Claim(seat: $0, status: .blocked, holdID: pooled!.record.id) }
        let freed = chosen.map { SeatChange(seat: $0.seat, status: toPool.contains($0.seat) ? .blocked : .available) }
        let sold = seats.map { SeatChange(seat: $0, status: .sold) }
        let claims = seats.map { Claim(seat: $0, status: .sold, holdID: record.id) }
        let tickets: [CommitTicket]
        if from === to {
            tickets = [
                try apply(
                    to, in: m, changes: freed + sold, insert: claims + poolClaims, holds: [record] + (pooled.map { [$0.record] } ?? []), durable: true,
                    idempotency: kept, refunds: refunds, paymentRefunds: moneyBack, log: log)
            ]
        } else {
            var give = stage(
                from, in: m, changes: freed, insert: poolClaims, holds: pooled.map { [$0.record] } ?? [], durable: true, refunds: refunds, log: log)
            give.paymentRefunds = moneyBack
            let take = stage(to, in: m, changes: sold, insert: claims, holds: [record], durable: true, idempotency: kept, log: log)
            tickets = writer.enqueue(together: [give, take])
        }
        if let pooled { keep(pooled, in: from, m) }
        if let admission = x.admission { to.spentAdmissions.insert(admission) }
        metrics.count("exchanged_seats", by: seats.count)
        return (.done(view), tickets)
    }
}

/// What a buyer may still do with their order on one show, by its `AfterSalePolicy`, as of now.
public struct AfterSaleTerms: Sendable {
    public var showID: String
    public var exchangesLeft: Int
    /// When exchanges close (Unix milliseconds); nil when the show has no start time.
    public var exchangeUntil: Int64?
    /// Per seat exchanged.
    public var exchangeFee: Money
    /// When refunds close; nil when the buyer may not refund (`refunds` false).
    public var refundUntil: Int64?
    public var refunds: Bool
    /// The fee of a refund now (`refundTiers`), nil: free; and the tiers, each with when it ends.
    public var refundFee: String?
    public var refundTiers: [(until: Int64, fee: String)] = []
    /// Each seat the buyer may refund now, with its fee and what it gives back (empty: none may be).
    public var refundSeats: [SeatRefund] = []
    public var oneRefundPerBuyer = false
    /// When seats refunded before it go back on sale together.
    public var refundRelease: Int64?

    public struct SeatRefund: Sendable {
        public var seatID: String
        public var price: Money, fee: Money, back: Money
    }
}

extension Inventory {
    /// The buyer's part of order `orderRef` (`buyerScope`), with what they may still do on each show it
    /// has seats of. A 404 when the order or the code is not found. Reads the store: call off the lock.
    public func buyerOrder(orderRef: String, code: String) throws(Refusal) -> (order: OrderView, terms: [AfterSaleTerms]) {
        let (rows, refunds) = try storedOrder(orderRef)
        let scope = try Self.buyerScope(code: code, rows: rows, refunds: refunds, orderRef: orderRef)
        let mine = rows.filter { scope.contains($0.record.id) }
        return locked { m in
            let order = orderView(orderRef, rows: mine, refunds: refunds.filter { scope.contains($0.holdID) }, in: m)
            let left = Self.exchangesMade(scope)
            var terms: [AfterSaleTerms] = []
            for showID in Set(mine.filter { !$0.seats.isEmpty }.map(\.record.showID)).sorted() {
                guard let state = m.shows[showID] else { continue }
                let policy = AfterSalePolicy(detailsJSON: state.record.detailsJSON), starts = state.startsAtMilliseconds
                var t = AfterSaleTerms(
                    showID: showID, exchangesLeft: max(0, policy.exchanges - left),
                    exchangeUntil: starts.map { $0 - Int64(policy.exchangeMinutes) * 60_000 },
                    exchangeFee: Money(policy.exchangeFee, of: state.prices.table),
                    refundUntil: policy.refunds ? starts.map { $0 - Int64(policy.refundMinutes) * 60_000 } : nil, refunds: policy.refunds)
                let (tier, seats) = refundQuote(policy, state: state, mine: mine, scope: scope, refunds: refunds)
                t.refundFee = tier.map(\.feeText)
                t.refundSeats = seats
                t.refundTiers = starts.map { s in policy.refundTiers.map { (s - Int64($0.until) * 60_000, $0.feeText) } } ?? []
                t.oneRefundPerBuyer = policy.oneRefundPerBuyer
                t.refundRelease = policy.refundRelease
                terms.append(t)
            }
            return (order, terms)
        }
    }

    /// The tickets of the buyer's part of order `orderRef` (`buyerScope`).
    public func buyerTickets(orderRef: String, code: String) throws(Refusal) -> [TicketView] {
        let (rows, refunds) = try storedOrder(orderRef)
        let scope = try Self.buyerScope(code: code, rows: rows, refunds: refunds, orderRef: orderRef)
        let mine = rows.filter { scope.contains($0.record.id) }
        let bound = try boundTickets(of: mine)
        return locked { m in tickets(mine, refunds: refunds, orderRef: orderRef, in: m, bound: bound) }
    }
}
