import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SeatSecrets

/// An order as the box office sees it: every confirmed hold under one order reference (an online
/// purchase, a counter sale, a sold reservation), with the price each seat was sold at (the price
/// table of its hold's revision, or the operator's own price).
public struct OrderView: Sendable {
    public struct Part: Sendable {
        public var holdID: String
        public var showID: String
        /// `online` (a buyer's hold confirmed) or `counter` (sold by an operator).
        public var channel: String
        public var payment: String
        public var operatorName: String?
        public var seats: [(id: String, price: Money)]
        public var total: Money
        public var currency: String
        public var soldAt: Int64
        /// The rules the operator sold past (`force`), named; empty when none.
        public var overridden: String?
        /// For a part an exchange made: the sale whose seats it replaced, and the fee paid with it.
        public var exchangedFrom: String?
        public var fee: Money?
    }
    public struct Refund: Sendable {
        public var seatID: String
        public var price: Money
        public var refundedAt: Int64
        public var reason: String
        public var operatorName: String
        /// The reservation the seat went back to (nil: on sale again).
        public var returnedTo: String?
        /// The sale (a part's hold id) an exchange replaced the seat with.
        public var exchangedTo: String?
        /// What the buyer's refund cost (`refundTiers`); nil: nothing.
        public var fee: Money?
    }
    public var orderRef: String
    public var parts: [Part]
    /// Seats given back, each with the price it was sold at.
    public var refunds: [Refund] = []
}

/// Counter sales: the box office sells seats at once (no buyer limit; the show's rules only as a
/// warning the operator may override with `force`, which is recorded), durably, on the buyers'
/// machinery. A sale is a hold confirmed as it is made, so an order reads the same whichever channel
/// it came through.
extension Inventory {
    public struct NewSale: Sendable {
        public enum Source: Sendable {
            /// Seats by id and standing places by count (area id, count): the inventory picks which.
            case seats([String], places: [(area: String, count: Int)] = [])
            /// Every seat of a live reservation (house seats sold to the guest they were kept for).
            case reservation(String)
        }
        public var source: Source
        public var orderRef: String
        public var payment: String
        public var force: Bool
        /// Prices the operator sets for some seats (seat id → amount), instead of the show's.
        public var prices: [String: Decimal]
        public init(source: Source, orderRef: String, payment: String, force: Bool, prices: [String: Decimal] = [:]) {
            self.source = source; self.orderRef = orderRef; self.payment = payment; self.force = force; self.prices = prices
        }
    }

    package func beginSell(
        show showID: String, _ sale: NewSale, by operatorName: String, idempotency: IdempotentRequest<OrderView>? = nil
    ) throws(Refusal) -> (Answer<OrderView>, CommitTicket?) {
        let stored = try storedAnswer(idempotency)
        // An order reference names one order: a second sale under it would merge two customers' seats.
        let existing: [(record: HoldRecord, seats: [Int])]
        do { existing = try store.orders(orderRef: sale.orderRef) } catch { throw Self.storeRefusal(error) }
        // A reservation another instance made is read first (as every reservation operation does).
        let reservation: HoldSnapshot?
        if case .reservation(let rid) = sale.source { reservation = try readReservation(rid) } else { reservation = nil }
        let now = clock()
        let (random, token) = Self.randomIDAndToken(prefix: idPrefix(show: showID, now))
        let id = "s_" + random, digest = Secrets.tokenDigest(token)
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> (Answer<OrderView>, CommitTicket?) in
            if let body = try replay(idempotency, stored: stored, in: m) { return (.replayed(body: body), nil) }
            apply(reservation, in: m)
            let pending = m.shows.values.contains { s in s.holds.values.contains { $0.record.orderRef == sale.orderRef } }
            if !existing.isEmpty || pending || m.recentOrders.contains(sale.orderRef) {
                throw Refusal(.orderExists, detail: "order \(sale.orderRef) already exists: use another order reference")
            }
            let state = try state(forShow: showID, in: m)
            try checkNotCancelled(state)
            var record: HoldRecord
            var seats: [SeatIndex]
            var changes: [SeatChange], insert: [Claim] = [], sell: [Int] = []
            switch sale.source {
            case .seats(let ids, let places):
                guard !ids.isEmpty || places.contains(where: { $0.count > 0 }) else {
                    throw Refusal(.noSeats, detail: "a sale needs at least one seat or place")
                }
                let named = try resolve(ids, in: state.layout)
                seats = (named + (try choosePlaces(places, in: state, besides: named))).sorted()
                try checkFree(seats, in: state, own: [])
                record = HoldRecord(
                    id: id, tokenDigest: digest, showID: showID, state: .confirmed, expiresAt: now, extended: false, orderRef: sale.orderRef,
                    wheelchair: false, createdAt: now, kind: .counter, operatorName: operatorName, payment: sale.payment)
                insert = seats.map { Claim(seat: $0, status: .sold, holdID: id) }
            case .reservation(let rid):
                let (reservationState, hold) = try liveReservation(rid, in: m)
                guard reservationState === state else { throw Refusal(.notFound, detail: "reservation \(rid) is not for show \(showID)") }
                seats = hold.seats
                record = hold.record
                record.state = .confirmed; record.orderRef = sale.orderRef; record.payment = sale.payment
                // The operator who sold it is the one the order names; the reservation's maker stays in its reason.
                record.reason = "\(record.reason ?? "") (reserved by \(record.operatorName ?? "?"))"
                record.operatorName = operatorName
                sell = seats
                m.ended(record, in: state)
            }
            changes = seats.map { SeatChange(seat: $0, status: .sold) }
            // Today's prices, and the operator's own for the seats named (each one of this sale's).
            var pricing = state.currentPricing
            let own = Set(seats)
            var foreign: [String] = []
            for (id, amount) in sale.prices {
                if let seat = state.layout.index(ofSeatID: id), own.contains(seat) { pricing.overrides[seat] = amount } else { foreign.append(id) }
                if PriceTable.round(amount, minorUnits: state.prices.table.minorUnits) != amount {
                    throw Refusal(
                        .invalidBody,
                        detail: "prices.\(id): \(amount) has more decimals than \(state.prices.table.currency) (\(state.prices.table.minorUnits))",
                        details: [.errors([("prices." + id, "too many decimals")])])
                }
            }
            if !foreign.isEmpty {
                throw Refusal(
                    .invalidBody, detail: "prices names seats this sale does not sell: \(foreign.sorted().joined(separator: ", "))",
                    details: [.seats(foreign.sorted())])
            }
            record.prices = pricing.stored(in: state.prices.table)
            let forced = try counterRules(seats, in: state, own: Set(sell), force: sale.force)
            if !forced.isEmpty {
                record.reason = ((record.reason.map { $0 + "; " }) ?? "") + "forced past " + forced.joined(separator: ", ")
            }
            let answer = OrderView(orderRef: sale.orderRef, parts: [orderPart(record, seats: seats, in: state)])
            let ticket = try apply(
                state, in: m, changes: changes, insert: insert, sell: sell, holds: [record], durable: true, idempotency: idempotency.map { $0.kept(answer) },
                log: LogEntry(action: "sell", holdID: record.id, operatorName: operatorName, reason: record.reason, orderRef: sale.orderRef))
            m.recentOrders.insert(sale.orderRef)
            metrics.count("counter_sales")
            return (.done(answer), ticket)
        }
    }

    /// The buyer's rules a counter sale is held to as a warning (not the seat limit, nor the wheelchair
    /// request): refused unless the operator forces it; forced, the rules' names (recorded with the sale).
    /// Called under the lock.
    func counterRules(_ seats: [SeatIndex], in state: ShowState, own: Set<SeatIndex>, force: Bool) throws(Refusal) -> [String] {
        let violations = state.policy.violations(
            for: seats, in: state.layout, availability: state.availability, context: SelectionContext(wheelchairRequested: true, ownHeld: own)
        ).filter { $0.rule != .seatLimit && $0.rule != .wheelchairOnRequest && $0.rule != .notAvailable }
        if let v = violations.first, !force {
            throw Refusal(
                .ruleViolation, detail: "\(v.rule.rawValue): \(v.english) Sell anyway with \"force\": true (recorded).",
                details: [Self.violations(violations, in: state.layout)])
        }
        return violations.map(\.rule.rawValue)
    }

    /// Every part of an order and its refunds, as the store has them (read outside the lock).
    public func order(orderRef: String) throws(Refusal) -> OrderView {
        let (rows, refunds) = try storedOrder(orderRef)
        return locked { m in orderView(orderRef, rows: rows, refunds: refunds, in: m) }
    }

    /// The order's confirmed holds with their seats, and their refunds, from the store; a 404 when there
    /// is no such order. Reads the store: call off the lock.
    func storedOrder(_ orderRef: String) throws(Refusal) -> (rows: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord]) {
        let rows: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord]
        do {
            rows = try store.orders(orderRef: orderRef)
            refunds = try store.refunds(holdIDs: rows.map(\.record.id))
        } catch { throw Self.storeRefusal(error) }
        guard !rows.isEmpty else {
            // With a shard down the order may be there: not "no such order" but "try again".
            if let down = placement?.unreachableShards.first {
                throw Refusal(
                    .storeUnavailable, detail: "order \(orderRef) is on no shard that answers now (shard \(down) cannot be reached); try again shortly")
            }
            throw Refusal(.notFound, detail: "no order \(orderRef)")
        }
        return (rows, refunds)
    }

    /// `beginRefund` to the end: waits for the store, and settles a race with another clerk or instance
    /// itself (the order read again, decided again) instead of answering "unavailable" while the database
    /// is healthy (two clerks refunding one order on PostgreSQL once got a 503 for 3 % of refunds).
    /// Refunds on this instance take turns (a rare, short operation), so only other instances' refunds
    /// race it; each round one of them wins, so 64 rounds settle any number of clerks that matter.
    /// Blocks: call off the inventory lock.
    package func refund(
        orderRef: String, seatIDs: [String]?, reason: String, by operatorName: String, toSale: Bool = false, buyerCode: String? = nil,
        idempotency: IdempotentRequest<OrderView>? = nil
    ) throws(Refusal) -> Answer<OrderView> {
        try settlingOrderRaces(Refusal(.showChanged, detail: "order \(orderRef) kept changing while it was refunded; reload it and try again")) {
            () throws(Refusal) -> (Answer<OrderView>, [CommitTicket]) in
            try beginRefund(
                orderRef: orderRef, seatIDs: seatIDs, reason: reason, by: operatorName, toSale: toSale, buyerCode: buyerCode, idempotency: idempotency)
        }
    }

    /// One change of an order (a refund, an exchange) to the end, on this instance's turn: `begin` decides
    /// and queues it, and is run again when it asks to be (`retryInside`) or when another instance's
    /// commit won the race for the order (read again, decided again), up to 64 rounds a few ms apart;
    /// `last` is the answer when they run out. A store that is down is answered at once.
    /// Blocks: call off the inventory lock.
    func settlingOrderRaces<View>(_ last: Refusal, _ begin: () throws(Refusal) -> (Answer<View>, [CommitTicket])) throws(Refusal) -> Answer<View> {
        try refundTurn.withLock { turns throws(Refusal) -> Answer<View> in
            turns += 1
            var last = last
            for round in 0..<64 {
                if round > 0 { usleep(UInt32(1000 * min(round, 20))) }  // the winner's commit and its event: a few ms
                let answer: Answer<View>, tickets: [CommitTicket]
                do throws(Refusal) {
                    (answer, tickets) = try begin()
                } catch {
                    guard error.retryInside else { throw error }
                    last = error
                    continue
                }
                var raced = false
                for ticket in tickets {
                    do { try ticket.wait() } catch {
                        switch StoreError(error) {
                        // An admission that bought already (on another instance, or before a restart): no race to settle.
                        case let e where e.isAdmissionInUse: throw Self.storeRefusal(error)
                        case .conflict, .changedElsewhere: raced = true  // another instance changed the order first: read again
                        case .unavailable, .closed: throw Self.storeRefusal(error)
                        }
                    }
                }
                if !raced { return answer }
            }
            throw last
        }
    }

    /// Gives seats of an order back (all of them when `seatIDs` is nil): they return to sale, live, and
    /// each refund is kept with the sale. A seat is refunded once: again is a 409 naming it. The order is
    /// read from the store, then checked under the lock: no sold seat of its shows may have been freed
    /// since just before the read (or the read may name a seat refunded and sold to someone else since:
    /// read again, up to 5 times, then a refusal `refund` retries). With `buyerCode` the buyer refunds
    /// their own part of the order (`buyerScope`) within each show's `AfterSalePolicy`.
    package func beginRefund(
        orderRef: String, seatIDs: [String]?, reason: String, by operatorName: String, toSale: Bool = false, buyerCode: String? = nil,
        idempotency: IdempotentRequest<OrderView>? = nil
    ) throws(Refusal) -> (Answer<OrderView>, [CommitTicket]) {
        let stored = try storedAnswer(idempotency)
        for _ in 0..<5 {
            let before: [String: UInt64] = locked { m in m.shows.mapValues { $0.availability.version } }
            let rows: [(record: HoldRecord, seats: [Int])], earlier: [RefundRecord]
            var paid: [String: (payment: PaymentRecord, left: Int64)] = [:]
            var lines: [String: [WaitlistEntry]] = [:]
            do {
                rows = try store.orders(orderRef: orderRef)
                earlier = try store.refunds(holdIDs: rows.map(\.record.id))
                paid = try paymentsToRefund(rows.map(\.record))
                // Who waits for seats of these shows (their waitlists): read here, decided under the lock.
                lines = [:]
                if let waitlists = store.waitlists {
                    for show in Set(rows.map(\.record.showID)) {
                        lines[show] = try waitlists.openWaitlist(show: show).filter(\.isInLine)
                    }
                }
                // A shared store's other instances reach memory a moment late: the order's shows are caught up
                // to the store first, or a sale made on another instance just before reads as "not in the order"
                // here (11 of 30 clerks were told so under load).
                try followStore(only: Set(rows.map(\.record.showID)))
            } catch { throw Self.storeRefusal(error) }
            let done = try lockedWhenFresh(shows: Set(rows.map(\.record.showID))) { (m: Memory) throws(Refusal) -> (Answer<OrderView>, [CommitTicket])? in
                if let body = try replay(idempotency, stored: stored, in: m) { return (.replayed(body: body), []) }
                guard !rows.isEmpty else { throw Refusal(.notFound, detail: "no order \(orderRef)") }
                let scope = try buyerCode.map { code throws(Refusal) in try Self.buyerScope(code: code, rows: rows, refunds: earlier, orderRef: orderRef) }
                guard rows.allSatisfy({ row in m.shows[row.record.showID].map { $0.soldFreedVersion <= before[row.record.showID] ?? 0 } ?? true })
                else { return nil }
                // Which sold seats of which part: the named ones, or all.
                var wanted = seatIDs.map { Set($0) }
                var chosen: [(state: ShowState, record: HoldRecord, seat: Int)] = []
                // What each seat's refund costs the buyer (`hold#seat`): the show's tier of now.
                var fees: [String: Decimal] = [:]
                let now = clock()
                for row in rows where scope?.contains(row.record.id) ?? true {
                    let state = try state(forShow: row.record.showID, in: m)
                    for seat in row.seats where wanted == nil || wanted!.contains(state.layout.seatID(seat)) {
                        guard state.availability[seat] == .sold else { continue }
                        if let scope {
                            let policy = AfterSalePolicy(detailsJSON: state.record.detailsJSON)
                            guard policy.refunds else {
                                throw Refusal(.afterSaleClosed, detail: "show \(state.record.id) takes no refunds from buyers; the box office can still help")
                            }
                            try checkWindow(state, minutes: policy.refundMinutes, what: "refunds")
                            try checkOneRefund(policy, state: state, scope: scope, rows: rows, earlier: earlier)
                            if let starts = state.startsAtMilliseconds, let tier = policy.refundTier(millisecondsBeforeStart: starts - now) {
                                let fee = tier.fee(of: state.price(of: seat, HoldPricing(stored: row.record.prices)), minorUnits: state.prices.table.minorUnits)
                                if fee > 0 { fees["\(row.record.id)#\(seat)"] = fee }
                            }
                        }
                        chosen.append((state, row.record, seat))
                        wanted?.remove(state.layout.seatID(seat))
                    }
                }
                if let left = wanted, !left.isEmpty {
                    throw Refusal(
                        .notInOrder, detail: "not sold in order \(orderRef) (never in it, or refunded already): \(left.sorted().joined(separator: ", "))",
                        details: [.seats(left.sorted())])
                }
                guard !chosen.isEmpty else { throw Refusal(.notInOrder, detail: "order \(orderRef) has no seat left to refund") }
                // A sold reservation's seats go back to a reservation like it (the guest did not come after all),
                // unless its release time has passed or the operator asks for sale: one new reservation a sale.
                var back: [String: HoldRecord] = [:]
                for c in chosen where !toSale && c.record.kind.isReservation && c.record.expiresAt > now && back[c.record.id] == nil {
                    let (random, token) = Self.randomIDAndToken(prefix: idPrefix(show: c.record.showID, now))
                    back[c.record.id] = HoldRecord(
                        id: "r_" + random, tokenDigest: Secrets.tokenDigest(token),
                        showID: c.record.showID, state: .active, expiresAt: c.record.expiresAt, extended: false, orderRef: nil, wheelchair: false,
                        createdAt: now, kind: c.record.kind, reason: "back from order \(orderRef): \(c.record.reason ?? "")", operatorName: operatorName)
                }
                // A show that releases refunded seats together (`refundRelease`): the rest wait in one reservation
                // a show until then, unless the box office asked for sale.
                // A show with a waitlist (`details.waitlist`): seats someone in line (as the store has it) wants go
                // to its pool first, never to the public while the line wants them.
                var pools: [String: (record: HoldRecord, seats: [SeatIndex])] = [:]
                for showID in Set(chosen.map(\.state.record.id)) {
                    let part = chosen.filter { $0.state.record.id == showID && back[$0.record.id] == nil }
                    guard let state = part.first?.state else { continue }
                    pools[showID] = waitlistPool(for: part.map(\.seat), in: state, now: now, line: lines[showID] ?? [])
                }
                let pooled = Set(chosen.filter { c in pools[c.state.record.id]?.seats.contains(c.seat) == true }.map { "\($0.record.id)#\($0.seat)" })
                var batch: [String: HoldRecord] = [:]
                for c in chosen
                where back[c.record.id] == nil && !pooled.contains("\(c.record.id)#\(c.seat)") && (buyerCode != nil || !toSale)
                    && batch[c.state.record.id] == nil
                {
                    guard let at = AfterSalePolicy(detailsJSON: c.state.record.detailsJSON).refundRelease, at > now else { continue }
                    let (random, token) = Self.randomIDAndToken(prefix: idPrefix(show: c.state.record.id, now))
                    batch[c.state.record.id] = HoldRecord(
                        id: "r_" + random, tokenDigest: Secrets.tokenDigest(token), showID: c.state.record.id, state: .active, expiresAt: at,
                        extended: false, orderRef: nil, wheelchair: false, createdAt: now, kind: .blocked,
                        reason: "refunded seats, back on sale together at \(Self.isoTime(at))", operatorName: operatorName)
                }
                let waiting = { (c: (state: ShowState, record: HoldRecord, seat: Int)) -> HoldRecord? in
                    if let r = back[c.record.id] { return r }
                    if pooled.contains("\(c.record.id)#\(c.seat)") { return pools[c.state.record.id]?.record }
                    return batch[c.state.record.id]
                }
                let fresh = chosen.map {
                    RefundRecord(
                        holdID: $0.record.id, seat: $0.seat, refundedAt: now, reason: reason, operatorName: operatorName, returnedTo: back[$0.record.id]?.id,
                        fee: fees["\($0.record.id)#\($0.seat)"])
                }
                let moneyBack = providerRefunds(chosen.map { ($0.state, $0.record, $0.seat) }, paid: paid, reason: reason, now: now, fees: fees)
                // The order as it will be: the answer, and what a retry with the same key gets.
                let gone = Set(chosen.map { "\($0.record.id)#\($0.seat)" })
                let answer = orderView(
                    orderRef, rows: rows.map { row in (row.record, row.seats.filter { !gone.contains("\(row.record.id)#\($0)") }) }, refunds: earlier + fresh,
                    in: m)
                var kept = idempotency.map { $0.kept(answer) }
                var out: [CommitTicket] = []
                for showID in Set(chosen.map(\.state.record.id)).sorted() {
                    let part = chosen.filter { $0.state.record.id == showID }, state = part[0].state
                    let reservations =
                        back.values.filter { $0.showID == showID } + (batch[showID].map { [$0] } ?? []) + (pools[showID].map { [$0.record] } ?? [])
                    let returned = part.compactMap { c in waiting(c).map { (seat: c.seat, hold: $0) } }
                    out.append(
                        try apply(
                            state, in: m,
                            changes: part.map { SeatChange(seat: $0.seat, status: waiting($0) == nil ? .available : .blocked) },
                            insert: returned.map { Claim(seat: $0.seat, status: .blocked, holdID: $0.hold.id) }, holds: reservations, durable: true,
                            idempotency: kept, refunds: fresh.filter { r in part.contains { $0.record.id == r.holdID && $0.seat == r.seat } },
                            paymentRefunds: moneyBack.filter { $0.showID == showID },
                            log: LogEntry(action: "refund", operatorName: operatorName, reason: reason, orderRef: orderRef)))
                    for r in reservations where r.id != pools[showID]?.record.id {
                        state.holds[r.tokenDigest] = ActiveHold(record: r, seats: returned.filter { $0.hold.id == r.id }.map(\.seat).sorted())
                        m.holdShow[r.tokenDigest] = showID
                    }
                    if let pool = pools[showID] { keep(pool, in: state, m) }
                    kept = nil  // kept once, with the first show's change
                }
                metrics.count("refunded_seats", by: chosen.count)
                return (.done(answer), out)
            }
            if let done { return done }
        }
        var changing = Refusal(.showChanged, detail: "order \(orderRef) kept changing while it was read; reload it and try again")
        changing.retryInside = true
        throw changing
    }

    /// An order from the store's rows and refunds, drawn with the shows' layouts and prices. Called under the lock.
    func orderView(_ orderRef: String, rows: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord], in m: Memory) -> OrderView {
        let sale = Dictionary(rows.map { ($0.record.id, $0.record) }, uniquingKeysWith: { a, _ in a })
        let replaced = Dictionary(refunds.compactMap { r in r.exchangedTo.map { ($0, r.holdID) } }, uniquingKeysWith: { a, _ in a })
        return OrderView(
            orderRef: orderRef,
            parts: rows.compactMap { row in
                m.shows[row.record.showID].map { orderPart(row.record, seats: row.seats, in: $0, exchangedFrom: replaced[row.record.id]) }
            },
            refunds: refunds.compactMap { r in
                sale[r.holdID].flatMap { record in m.shows[record.showID].map { (record, $0) } }.map { record, state in
                    OrderView.Refund(
                        seatID: state.layout.seatID(r.seat), price: state.money(of: r.seat, HoldPricing(stored: record.prices)),
                        refundedAt: r.refundedAt, reason: r.reason, operatorName: r.operatorName, returnedTo: r.reservation, exchangedTo: r.exchangedTo,
                        fee: r.fee.map { Money($0, of: state.prices.table) })
                }
            })
    }

    func orderPart(_ r: HoldRecord, seats: [SeatIndex], in state: ShowState, exchangedFrom: String? = nil) -> OrderView.Part {
        let pricing = HoldPricing(stored: r.prices)
        return OrderView.Part(
            holdID: r.id, showID: r.showID, channel: salesChannel(r, in: state), payment: Self.paymentWord(r) ?? "",
            operatorName: r.operatorName, seats: seats.map { (state.layout.seatID($0), state.money(of: $0, pricing)) },
            total: state.total(of: seats, pricing), currency: state.prices.table.currency, soldAt: r.createdAt,
            overridden: r.reason.flatMap { $0.contains("forced past ") ? String($0[$0.range(of: "forced past ")!.upperBound...]) : nil },
            exchangedFrom: exchangedFrom, fee: pricing.fee.map { Money($0, of: state.prices.table) })
    }
}
