import Foundation
import SeatMap
import SeatSecrets
import SeatStorage

/// An order as the box office sees it: every confirmed hold under one order reference (an online
/// purchase, a counter sale, a sold reservation), with the price each seat sells at today.
public struct OrderView: Sendable {
    public struct Part: Sendable {
        public var holdID: String
        public var showID: String
        /// `online` (a buyer's hold confirmed) or `counter` (sold by an operator).
        public var channel: String
        public var payment: String
        public var operatorName: String?
        public var seats: [(id: String, price: String)]
        public var total: String
        public var currency: String
        public var soldAt: Int64
        /// The rules the operator sold past (`force`), named; empty when none.
        public var overridden: String?
    }
    public var orderRef: String
    public var parts: [Part]
}

/// Counter sales: the box office sells seats at once (no buyer limit; the show's rules only as a
/// warning the operator may override with `force`, which is recorded), durably, on the buyers'
/// machinery. A sale is a hold confirmed as it is made, so an order reads the same whichever channel
/// it came through.
extension Inventory {
    public struct NewSale: Sendable {
        public enum Source: Sendable, Equatable {
            case seats([String])
            /// Every seat of a live reservation (house seats sold to the guest they were kept for).
            case reservation(String)
        }
        public var source: Source
        public var orderRef: String
        public var payment: String
        public var force: Bool
        public init(source: Source, orderRef: String, payment: String, force: Bool) {
            self.source = source; self.orderRef = orderRef; self.payment = payment; self.force = force
        }
    }

    package func beginSell(show showID: String, _ sale: NewSale, by operatorName: String) throws(Refusal) -> (OrderView, CommitTicket) {
        // An order reference names one order: a second sale under it would merge two customers' seats.
        let existing: [(record: HoldRecord, seats: [Int])]
        do { existing = try store.orders(orderRef: sale.orderRef) } catch { throw Self.storeRefusal(error) }
        let now = clock()
        let prefix = Self.timePrefix(now)
        let id = "s_" + prefix + Self.randomHex(bytes: 8), digest = Secrets.tokenDigest(prefix + Self.randomHex(bytes: 16))
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> (OrderView, CommitTicket) in
            let pending = m.shows.values.contains { s in s.holds.values.contains { $0.record.orderRef == sale.orderRef } }
            if !existing.isEmpty || pending || m.recentOrders.contains(sale.orderRef) {
                throw Refusal(.orderExists, detail: "order \(sale.orderRef) already exists: use another order reference")
            }
            let state = try state(forShow: showID, in: m)
            var record: HoldRecord
            var seats: [SeatIndex]
            var changes: [SeatChange], insert: [Claim] = [], sell: [Int] = []
            switch sale.source {
            case .seats(let ids):
                guard !ids.isEmpty else { throw Refusal(.noSeats, detail: "a sale needs at least one seat") }
                seats = try resolve(ids, in: state.layout).sorted()
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
                state.holds[hold.record.tokenDigest] = nil
                m.holdShow[hold.record.tokenDigest] = nil
            }
            changes = seats.map { SeatChange(seat: $0, status: .sold) }
            // The buyer's rules as a warning: refused unless the operator forces it (recorded with the sale).
            let violations = state.policy.violations(
                for: seats, in: state.layout, availability: state.availability, context: SelectionContext(wheelchairRequested: true, ownHeld: Set(sell))
            ).filter { $0.rule != .seatLimit && $0.rule != .wheelchairOnRequest && $0.rule != .notAvailable }
            if !violations.isEmpty && !sale.force {
                let v = violations[0]
                throw Refusal(
                    .ruleViolation, detail: "\(v.rule.rawValue): \(v.english) Sell anyway with \"force\": true (recorded).",
                    details: [("violations", "[" + violations.map { JSONWriter.quoted($0.rule.rawValue) }.joined(separator: ",") + "]")])
            }
            if !violations.isEmpty {
                record.reason = ((record.reason.map { $0 + "; " }) ?? "") + "forced past " + violations.map(\.rule.rawValue).joined(separator: ", ")
            }
            let ticket = try apply(state, in: m, changes: changes, insert: insert, sell: sell, holds: [record], durable: true)
            m.recentOrders.insert(sale.orderRef)
            metrics.count("counter_sales")
            return (OrderView(orderRef: sale.orderRef, parts: [orderPart(record, seats: seats, in: state)]), ticket)
        }
    }

    /// Every part of an order, as the store has it (read outside the lock).
    public func order(orderRef: String) throws(Refusal) -> OrderView {
        let rows: [(record: HoldRecord, seats: [Int])]
        do { rows = try store.orders(orderRef: orderRef) } catch { throw Self.storeRefusal(error) }
        guard !rows.isEmpty else { throw Refusal(.notFound, detail: "no order \(orderRef)") }
        return locked { m in
            OrderView(orderRef: orderRef, parts: rows.compactMap { row in m.shows[row.record.showID].map { orderPart(row.record, seats: row.seats, in: $0) } })
        }
    }

    func orderPart(_ r: HoldRecord, seats: [SeatIndex], in state: ShowState) -> OrderView.Part {
        OrderView.Part(
            holdID: r.id, showID: r.showID, channel: r.kind == .buyer ? "online" : "counter", payment: r.payment ?? (r.kind == .buyer ? "online" : ""),
            operatorName: r.operatorName, seats: seats.map { (state.layout.seatID($0), state.prices.totalString(of: [$0])) },
            total: state.prices.totalString(of: seats), currency: state.prices.table.currency, soldAt: r.createdAt,
            overridden: r.reason.flatMap { $0.contains("forced past ") ? String($0[$0.range(of: "forced past ")!.upperBound...]) : nil })
    }
}
