import Foundation
import SeatDomain
import SeatMap

/// The money that moved in a period (`GET /v1/reports/takings`): each sale when it was made (its line in
/// the show's log: the buyer's confirmation, the counter's sale, the exchange) and each refund when it
/// was given, whatever day the show is on; by show, by payment and by clerk, and each currency apart.
/// The cash-up of a shift is this for one clerk. Over a show's whole life its takings are its report's
/// net, so today's takings of today's shows sold today are the sales report's.
public struct Takings: Sendable {
    /// Money of one currency taken and given back, and the seats.
    public struct Sum: Sendable {
        public var key: String
        public var currency: String
        public var taken: Money, refunded: Money
        public var seatsSold = 0, seatsRefunded = 0
        public var net: Money { Money(taken.amount - refunded.amount, currency: currency, digits: taken.digits) }

        init(key: String, currency: String, digits: Int) {
            self.key = key; self.currency = currency
            (taken, refunded) = (Money(0, currency: currency, digits: digits), Money(0, currency: currency, digits: digits))
        }

        mutating func add(_ e: Entry) {
            if e.kind == .sale { taken += e.amount; seatsSold += e.seats } else { refunded += e.amount; seatsRefunded += e.seats }
        }
    }

    /// One sale or refund (a refund of several seats of one order at one moment is one entry).
    public struct Entry: Sendable {
        public enum Kind: String, Sendable { case sale, refund }
        /// Unix milliseconds.
        public var at: Int64
        public var kind: Kind
        public var showID: String
        public var orderRef: String?
        /// How the sale was paid (a refund: how the sale it gives back was paid): `cash`, `card`…, `online`.
        public var payment: String
        /// Who took or gave the money: the operator, or `online` for a buyer's own purchase.
        public var clerk: String
        public var seats: Int
        /// What was paid or given back (exchange fees with the sale that paid them).
        public var amount: Money
    }

    public var from: Int64, to: Int64
    /// Only this clerk's entries (a cash-up), or everyone's.
    public var clerk: String?
    /// In time order.
    public var entries: [Entry]
    public var byShow: [Sum], byPayment: [Sum], byClerk: [Sum], totals: [Sum]
}

extension Inventory {
    /// How far back of the period a show may start and still have money moving in it: refunds of a
    /// show that was cancelled or went wrong are given in the days after it (sales end at its start).
    static let takingsLookBack: Int64 = 7 * 86_400_000

    /// The takings of `[from, to)` (Unix milliseconds), of one clerk or all.
    /// - Complexity: O(shows starting from a week before `from` × (sales + refunds + log lines)).
    public func takings(from: Int64, to: Int64, clerk: String? = nil) throws(Refusal) -> Takings {
        var entries: [Takings.Entry] = []
        for (id, _) in shows(startingFrom: from - Self.takingsLookBack, to: .max) {
            entries += try takingsEntries(show: id).filter { $0.at >= from && $0.at < to && (clerk == nil || $0.clerk == clerk) }
        }
        entries.sort { ($0.at, $0.showID, $0.kind.rawValue) < ($1.at, $1.showID, $1.kind.rawValue) }
        func sums(_ key: (Takings.Entry) -> String) -> [Takings.Sum] {
            var out: [String: Takings.Sum] = [:]
            for e in entries {
                let k = key(e) + "\u{1F}" + e.currency
                out[k, default: Takings.Sum(key: key(e), currency: e.amount.currency, digits: e.amount.digits)].add(e)
            }
            return out.keys.sorted().map { out[$0]! }
        }
        return Takings(
            from: from, to: to, clerk: clerk, entries: entries, byShow: sums(\.showID), byPayment: sums(\.payment), byClerk: sums(\.clerk),
            totals: sums(\.currency))
    }

    /// Every sale and refund of the show, each at its moment, priced as its report prices it.
    /// - Complexity: O(sales + refunds + the show's log).
    func takingsEntries(show showID: String) throws(Refusal) -> [Takings.Entry] {
        let sales: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord]
        var madeAt: [String: Int64] = [:]
        do {
            sales = try store.sales(show: showID)
            if sales.isEmpty { return [] }
            refunds = try store.refunds(holdIDs: sales.map(\.record.id))
            // When each sale was made: its line in the log (a reservation's record was made when it was
            // kept, a buyer's when the seats were held).
            var after: UInt64 = 0
            while true {
                let page = try store.log(show: showID, after: after, limit: Self.logPage)
                for line in page where ["confirm", "sell", "exchange"].contains(line.entry.action) {
                    if let hold = line.entry.holdID { madeAt[hold] = line.at }
                }
                guard page.count == Self.logPage, let last = page.last else { break }
                after = last.version
            }
        } catch { throw Self.storeRefusal(error) }
        return try locked { (m: Memory) throws(Refusal) -> [Takings.Entry] in
            let state = try state(forShow: showID, in: m)
            let table = state.prices.table
            func money(_ d: Decimal) -> Money { Money(d, of: table) }
            var entries: [Takings.Entry] = []
            var byID: [String: (record: HoldRecord, pricing: HoldPricing)] = [:]
            var refundedSeats: [String: [Int]] = [:]
            for r in refunds where r.seat < state.layout.seatCount { refundedSeats[r.holdID, default: []].append(r.seat) }
            for sale in sales {
                let r = sale.record, pricing = HoldPricing(stored: r.prices)
                byID[r.id] = (r, pricing)
                let seats = sale.seats.filter { $0 < state.layout.seatCount } + (refundedSeats[r.id] ?? [])
                let amount = seats.reduce(pricing.fee ?? 0) { $0 + state.price(of: $1, pricing) }
                entries.append(
                    Takings.Entry(
                        at: madeAt[r.id] ?? r.createdAt, kind: .sale, showID: showID, orderRef: r.orderRef, payment: Self.payment(of: r),
                        clerk: Self.clerk(of: r), seats: seats.count, amount: money(amount)))
            }
            // A refund of several seats at one moment by one clerk is one entry, as it was one act.
            var groups: [String: (at: Int64, sale: String, clerk: String, seats: [Int])] = [:]
            for r in refunds where r.seat < state.layout.seatCount {
                groups["\(r.holdID)\u{1F}\(r.refundedAt)\u{1F}\(r.operatorName)", default: (r.refundedAt, r.holdID, r.operatorName, [])].seats.append(r.seat)
            }
            for g in groups.values {
                guard let sale = byID[g.sale] else { continue }
                entries.append(
                    Takings.Entry(
                        at: g.at, kind: .refund, showID: showID, orderRef: sale.record.orderRef, payment: Self.payment(of: sale.record), clerk: g.clerk,
                        seats: g.seats.count, amount: money(g.seats.reduce(0) { $0 + state.price(of: $1, sale.pricing) })))
            }
            return entries
        }
    }

    static func payment(of r: HoldRecord) -> String { r.payment ?? (r.kind == .buyer ? "online" : "unknown") }
    static func clerk(of r: HoldRecord) -> String { r.kind == .buyer ? "online" : (r.operatorName ?? "unknown") }
}

extension Takings.Entry {
    var currency: String { amount.currency }
}
