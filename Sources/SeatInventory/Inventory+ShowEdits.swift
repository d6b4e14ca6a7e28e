import Foundation
import SeatDomain
import SeatJSON
import SeatMap

/// A show changed after it went on sale: prices, times, what buyers are told, the on-sale switch,
/// cancellation. Each is a version on the show's stream like a seat change (one commit through the
/// writer, its line in the log, an `event: show` to every open picker after the version's `seats`
/// event), so a picker, a report and the store never disagree about which prices a version had.
extension Inventory {
    /// What a manager may change in `PATCH /v1/shows/{id}` (nil: unchanged).
    public struct ShowEdit: Sendable {
        public var startsAt: String?
        public var holdSeconds: Int?
        /// Replaces the display fields (a JSON object: title, film, format, language, poster…).
        public var detailsJSON: String?
        public var onSale: Bool?
        public init(startsAt: String? = nil, holdSeconds: Int? = nil, detailsJSON: String? = nil, onSale: Bool? = nil) {
            self.startsAt = startsAt; self.holdSeconds = holdSeconds; self.detailsJSON = detailsJSON; self.onSale = onSale
        }
    }

    /// What cancelling a show did: the holds and reservations released, and the sales to refund.
    public struct Cancellation: Sendable {
        public var releasedHolds: Int
        public var releasedReservations: Int
        public var toRefund: [OrderView]
    }

    /// A cancelled show takes nothing more (a refund is not a change of this kind).
    func checkNotCancelled(_ state: ShowState) throws(Refusal) {
        guard let at = state.record.cancelledAt else { return }
        throw Refusal(.showCancelled, detail: "show \(state.record.id) was cancelled at \(Self.isoTime(at)); its sales are refunded, nothing is sold")
    }

    static func isoTime(_ milliseconds: Int64) -> String { Timestamp.text(milliseconds) }

    /// New holds and sales use `table` from this version on; live holds and sales keep the prices they
    /// were made at (their revision). The currency cannot change (every amount of the show is in one).
    /// - Complexity: O(seats) to validate the table; O(1) for everything else.
    package func beginChangePrices(show showID: String, to table: PriceTable, by operatorName: String) throws(Refusal) -> (UInt64, CommitTicket) {
        try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> (UInt64, CommitTicket) in
            let state = try state(forShow: showID, in: m)
            try checkNotCancelled(state)
            guard table.currency == state.prices.table.currency else {
                throw Refusal(
                    .invalidBody, detail: "currency: the show sells in \(state.prices.table.currency); a price change cannot change it to \(table.currency)",
                    details: [.errors([("currency", "must stay \(state.prices.table.currency)")])])
            }
            let prices: SeatPrices
            do throws(LayoutError) { prices = try SeatPrices(table: table, layout: state.layout) } catch { throw Refusal.invalid(error) }
            var record = state.record
            let earlier = state.priceRevisions.map { String(decoding: $0.table.jsonBytes(), as: UTF8.self) }
            record.earlierPricesJSON = "[" + earlier.joined(separator: ",") + "]"
            record.pricesJSON = String(decoding: table.jsonBytes(), as: UTF8.self)
            record.priceRevision = state.priceRevisions.count
            let summary = Self.priceSummary(from: state.prices.table, to: table)
            let ticket = try apply(
                state, in: m, changes: [], holds: [], show: record, log: LogEntry(action: "prices", operatorName: operatorName, reason: summary))
            record.version = state.record.version
            state.replace(record: record, prices: prices)
            metrics.count("price_changes")
            return (record.version, ticket)
        }
    }

    /// `A 45.00→52.00, B 38.00→35.00` (what the log says a price change did).
    static func priceSummary(from old: PriceTable, to new: PriceTable) -> String {
        let names = Set(old.categoryPrices.keys).union(new.categoryPrices.keys).sorted()
        var parts = names.compactMap { c -> String? in
            let a = old.categoryPrices[c], b = new.categoryPrices[c]
            guard a != b else { return nil }
            return "\(c) \(a.map { old.amountString($0) } ?? "–")→\(b.map { new.amountString($0) } ?? "–")"
        }
        if old.adjustments != new.adjustments { parts.append("adjustments changed") }
        return parts.isEmpty ? "the same prices" : parts.joined(separator: ", ")
    }

    /// Changes the show's times, display fields or on-sale switch (validated by the API's reader). A
    /// new start time moves when sales close; a new hold time applies to holds made from now on.
    package func beginEditShow(show showID: String, _ edit: ShowEdit, by operatorName: String) throws(Refusal) -> (UInt64, CommitTicket) {
        try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> (UInt64, CommitTicket) in
            let state = try state(forShow: showID, in: m)
            try checkNotCancelled(state)
            var record = state.record
            var what: [String] = []
            if let t = edit.startsAt, t != record.startsAt { what.append("startsAt \(record.startsAt)→\(t)"); record.startsAt = t }
            if let h = edit.holdSeconds, h != record.holdSeconds { what.append("holdSeconds \(record.holdSeconds)→\(h)"); record.holdSeconds = h }
            if let d = edit.detailsJSON, d != record.detailsJSON { what.append("details"); record.detailsJSON = d }
            if let on = edit.onSale, on != record.onSale { what.append(on ? "on sale" : "off sale"); record.onSale = on }
            if record.startsAt != state.record.startsAt || record.detailsJSON != state.record.detailsJSON,
                let clash = scheduleClash(show: showID, venue: record.venueID, startsAt: record.startsAt, detailsJSON: record.detailsJSON, in: m)
            {
                throw clash
            }
            let ticket = try apply(
                state, in: m, changes: [], holds: [], show: record,
                log: LogEntry(action: "edit", operatorName: operatorName, reason: what.isEmpty ? "nothing changed" : what.joined(separator: "; ")))
            record.version = state.record.version
            state.replace(record: record, prices: nil)
            return (record.version, ticket)
        }
    }

    /// A line in the show's log for an operator's act on the show that changes no seat and no field of
    /// the show (the waiting room set, changed or switched off): a version of its own with no seat in
    /// it, so the log keeps the act in order with the sales around it.
    package func beginLogAct(show showID: String, action: String, what: String, by operatorName: String) throws(Refusal) -> CommitTicket {
        try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> CommitTicket in
            let state = try state(forShow: showID, in: m)
            return try apply(state, in: m, changes: [], holds: [], log: LogEntry(action: action, operatorName: operatorName, reason: what))
        }
    }

    /// Cancels the show: every live hold and reservation released in one version, sales stopped for
    /// good, and the orders to refund listed (refunds stay the box office's act: money goes back by the
    /// way it came, which the server does not know).
    /// - Complexity: O(live holds + held seats) under the lock; the sales are read from the store before it.
    package func beginCancelShow(
        show showID: String, reason: String, by operatorName: String, idempotency: IdempotentRequest<Cancellation>? = nil
    ) throws(Refusal) -> (Answer<Cancellation>, CommitTicket?) {
        let stored = try storedAnswer(idempotency)
        let sales: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord]
        do {
            sales = try store.sales(show: showID)
            refunds = try store.refunds(holdIDs: sales.map(\.record.id))
        } catch { throw Self.storeRefusal(error) }
        let reservations = try readReservations(show: showID, buyersToo: true)
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> (Answer<Cancellation>, CommitTicket?) in
            if let body = try replay(idempotency, stored: stored, in: m) { return (.replayed(body: body), nil) }
            for snapshot in reservations { apply(snapshot, in: m) }
            let state = try state(forShow: showID, in: m)
            try checkNotCancelled(state)
            let now = clock()
            var record = state.record
            record.onSale = false
            record.cancelledAt = now
            let live = Array(state.holds.values)
            let seats = live.flatMap(\.seats).sorted()
            let ended = live.map { h in
                var r = h.record
                r.state = .released
                return r
            }
            var byOrder: [String: [(record: HoldRecord, seats: [Int])]] = [:]
            for sale in sales where !sale.seats.isEmpty { byOrder[sale.record.orderRef ?? "", default: []].append(sale) }
            let orders = byOrder.keys.sorted().map { ref in
                let rows = byOrder[ref]!
                let ids = Set(rows.map(\.record.id))
                return orderView(ref, rows: rows, refunds: refunds.filter { ids.contains($0.holdID) }, in: m)
            }
            let answer = Cancellation(
                releasedHolds: live.filter { $0.record.kind == .buyer }.count, releasedReservations: live.filter { $0.record.kind.isReservation }.count,
                toRefund: orders)
            let ticket = try apply(
                state, in: m, changes: seats.map { SeatChange(seat: $0, status: .available) }, delete: seats, holds: ended, durable: true,
                idempotency: idempotency.map { $0.kept(answer) }, show: record, log: LogEntry(action: "cancel", operatorName: operatorName, reason: reason))
            for h in live {
                state.holds[h.record.tokenDigest] = nil
                m.holdShow[h.record.tokenDigest] = nil
            }
            record.version = state.record.version
            state.replace(record: record, prices: nil)
            metrics.count("shows_cancelled")
            return (.done(answer), ticket)
        }
    }
}
