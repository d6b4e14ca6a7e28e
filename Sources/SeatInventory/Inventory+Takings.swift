import Foundation
import SeatDomain
import SeatMap
import SeatSecrets

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
            switch e.kind {
            case .sale: taken += e.amount; seatsSold += e.seats
            case .refund: refunded += e.amount; seatsRefunded += e.seats
            // Seats moved, not sold: only the money that changed hands, in whichever direction it went.
            case .exchange:
                if e.amount.amount >= 0 { taken += e.amount } else { refunded += Money(-e.amount.amount, currency: currency, digits: e.amount.digits) }
            }
        }

        /// A show's part of an entry: an exchange between shows gives the old show's seats back
        /// (`givenBack`) and takes the new seats and the fee on the new show, so each show's sum over
        /// its life is its report's net.
        mutating func add(_ e: Entry, show: String) {
            guard e.kind == .exchange, let givenBack = e.givenBack else { return add(e) }
            if show == e.fromShowID { refunded += givenBack }
            if show == e.showID { taken += e.amount + givenBack }
        }
    }

    /// One sale, refund or exchange (a refund of several seats of one order at one moment is one entry;
    /// an exchange is one entry of the difference and the fee, whichever shows it moved between).
    public struct Entry: Sendable {
        public enum Kind: String, Sendable { case sale, refund, exchange }
        /// Unix milliseconds.
        public var at: Int64
        public var kind: Kind
        public var showID: String
        public var orderRef: String?
        /// How the sale was paid (a refund: how the sale it gives back was paid): `cash`, `card`…, `online`.
        public var payment: String
        /// Who took or gave the money: the operator, or `online` for a buyer's own purchase.
        public var clerk: String
        /// How the sale came (a refund: the sale it gives back): `online`, `counter`, `partner:NAME`, `season:NAME`.
        public var channel: String = "counter"
        public var seats: Int
        /// What was paid or given back; an exchange's difference and fee (negative: money given back).
        public var amount: Money
        /// An exchange's: the show its seats came from, and what those seats had been sold for.
        public var fromShowID: String?
        public var givenBack: Money?
        /// An exchange's new sale, by which its two halves (read from each show) are joined.
        var exchangeSale: String?
    }

    public var from: Int64, to: Int64
    /// Only this clerk's entries (a cash-up), or everyone's.
    public var clerk: String?
    /// In time order.
    public var entries: [Entry]
    public var byShow: [Sum], byPayment: [Sum], byClerk: [Sum], byChannel: [Sum], totals: [Sum]
}

extension Inventory {
    /// How far back of the period a show may start and still have money moving in it: refunds of a
    /// show that was cancelled or went wrong are given in the days after it (sales end at its start).
    static let takingsLookBack: Int64 = 7 * 86_400_000

    /// The takings of `[from, to)` (Unix milliseconds), of one clerk or all.
    /// - Complexity: O(shows starting from a week before `from` × (sales + refunds + log lines)).
    /// `including`: the shows whose money is counted (an operator's cinemas'); every one by default.
    public func takings(from: Int64, to: Int64, clerk: String? = nil, including: (String) -> Bool = { _ in true }) throws(Refusal) -> Takings {
        var entries: [Takings.Entry] = []
        for (id, _) in shows(startingFrom: from - Self.takingsLookBack, to: .max) where including(id) {
            entries += try takingsEntries(show: id).filter { $0.at >= from && $0.at < to }
        }
        entries = Self.joiningExchanges(entries).filter { clerk == nil || $0.clerk == clerk }
        // In one millisecond an order's sale comes before what was done to it (a confirm and its exchange
        // once landed in one millisecond, and the exchange, of show "sat", was listed before the sale, of "sun").
        func rank(_ k: Takings.Entry.Kind) -> Int { k == .sale ? 0 : k == .exchange ? 1 : 2 }
        entries.sort { ($0.at, rank($0.kind), $0.showID) < ($1.at, rank($1.kind), $1.showID) }
        func sums(byShow: Bool = false, _ keys: (Takings.Entry) -> [String]) -> [Takings.Sum] {
            var out: [String: Takings.Sum] = [:]
            for e in entries {
                for key in keys(e) {
                    let k = key + "\u{1F}" + e.currency
                    var sum = out[k] ?? Takings.Sum(key: key, currency: e.amount.currency, digits: e.amount.digits)
                    if byShow { sum.add(e, show: key) } else { sum.add(e) }
                    out[k] = sum
                }
            }
            return out.keys.sorted().map { out[$0]! }
        }
        return Takings(
            from: from, to: to, clerk: clerk, entries: entries,
            byShow: sums(byShow: true) { e in e.fromShowID.map { $0 == e.showID ? [$0] : [$0, e.showID] } ?? [e.showID] },
            byPayment: sums { [$0.payment] }, byClerk: sums { [$0.clerk] }, byChannel: sums { [$0.channel] },
            totals: sums { [$0.currency] })
    }

    /// An exchange's two halves, the seats given back (read with the old show) and the new sale (read
    /// with the new one), as one entry: the difference and the fee, by whoever made the exchange. A
    /// moved order once read as 4 seats sold, ¥180 taken and ¥90 refunded.
    static func joiningExchanges(_ entries: [Takings.Entry]) -> [Takings.Entry] {
        var out: [Takings.Entry] = [], halves: [String: Takings.Entry] = [:]
        for e in entries {
            guard let sale = e.exchangeSale else { out.append(e); continue }
            guard var other = halves.removeValue(forKey: sale) else { halves[sale] = e; continue }
            // The new sale's half carries the show, payment, clerk and seats; the other what was given back.
            let (new, old) = other.givenBack == nil ? (other, e) : (e, other)
            other = new
            other.fromShowID = old.fromShowID
            other.givenBack = old.givenBack
            other.amount = Money(new.amount.amount - (old.givenBack?.amount ?? 0), currency: new.amount.currency, digits: new.amount.digits)
            out.append(other)
        }
        // A half whose other half is outside the period or the look-back stands as it is.
        return out + halves.values
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
        let names = try channelNames(of: sales)
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> [Takings.Entry] in
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
                // An exchange's new sale is its half of the exchange (joined in `joiningExchanges`).
                let exchange = r.id.hasPrefix(RefundRecord.exchangePrefix)
                entries.append(
                    Takings.Entry(
                        at: madeAt[r.id] ?? r.createdAt, kind: exchange ? .exchange : .sale, showID: showID, orderRef: r.orderRef,
                        payment: Self.payment(of: r), clerk: Self.clerk(of: r), channel: salesChannel(r, names: names, in: state), seats: seats.count,
                        amount: money(amount), exchangeSale: exchange ? r.id : nil))
            }
            // A refund of several seats at one moment by one clerk is one entry, as it was one act.
            var groups: [String: (at: Int64, sale: String, clerk: String, exchangedTo: String?, seats: [Int], fees: Decimal)] = [:]
            for r in refunds where r.seat < state.layout.seatCount && !r.isSeasonRelease {
                let clerk = OperatorDirectory.buyersNames.contains(r.operatorName) ? "online" : r.operatorName
                let key = "\(r.holdID)\u{1F}\(r.refundedAt)\u{1F}\(r.operatorName)\u{1F}\(r.exchangedTo ?? "")"
                groups[key, default: (r.refundedAt, r.holdID, clerk, r.exchangedTo, [], 0)].seats.append(r.seat)
                groups[key]!.fees += r.fee ?? 0
            }
            for g in groups.values {
                guard let sale = byID[g.sale] else { continue }
                // A buyer's refund fee (refundTiers) stays taken: the refund is the rest.
                let value = money(g.seats.reduce(0) { $0 + state.price(of: $1, sale.pricing) } - g.fees)
                // Seats given back in an exchange are its other half: no refund of their own.
                entries.append(
                    Takings.Entry(
                        at: g.at, kind: g.exchangedTo == nil ? .refund : .exchange, showID: showID, orderRef: sale.record.orderRef,
                        payment: Self.payment(of: sale.record), clerk: g.clerk, channel: salesChannel(sale.record, names: names, in: state),
                        seats: g.seats.count, amount: g.exchangedTo == nil ? value : money(0),
                        fromShowID: g.exchangedTo == nil ? nil : showID, givenBack: g.exchangedTo == nil ? nil : value, exchangeSale: g.exchangedTo))
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
