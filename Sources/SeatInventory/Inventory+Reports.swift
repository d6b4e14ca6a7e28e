import Foundation
import SeatDomain
import SeatMap

/// What a show sold, in numbers that add up: seats by status and zone equal the venue's seats; revenue
/// is the sold seats' prices, each at the price it was sold at (gross: every seat ever sold; net: less
/// what was refunded), split by
/// category, channel and payment, each split summing to the net.
public struct ShowReport: Sendable {
    public struct ZoneRow: Sendable {
        public var zone: String
        public var category: String
        public var counts: StatusCounts
    }
    /// One seat, for the CSV.
    public struct SeatRow: Sendable {
        public var seatID: String
        public var row: String
        public var zone: String
        public var category: String
        public var status: SeatStatus
        public var price: Money
        public var orderRef: String?
        public var channel: String?
        public var payment: String?
    }
    public var showID: String
    public var version: UInt64
    public var seatCount: Int
    public var counts: StatusCounts
    public var zones: [ZoneRow]
    public var currency: String
    /// What sold, refunds included; what was refunded; what is kept (`gross - refunded`). Exchange fees
    /// and buyers' refund fees are in all three (`fees`): a fee is kept when the seats are refunded.
    public var gross: Money
    public var refunded: Money
    public var net: Money
    public var fees: Money
    /// `net` split by price category, channel (online, counter) and payment; by name.
    public var byCategory: [(String, Money)]
    public var byChannel: [(String, Money)]
    public var byPayment: [(String, Money)]
    public var orders: Int
    /// Seats given back, and of those the ones given back in an exchange (their sale replaced by another).
    public var refundedSeats: Int
    public var exchangedSeats: Int
    public var seats: [SeatRow]
}

extension Inventory {
    /// The show's report: statuses from memory as committed, sales and refunds from the store (read
    /// outside the lock; a sale committed between the two reads is in one and not yet the other, so
    /// the report says which version it counts). On a shared store the show is caught up to the store
    /// first: a clerk's sale on another instance a moment ago is in the report asked for here (the
    /// follower brings it within a second, but a manager reading at once saw 3 of 3,725 seats missing).
    /// `following`: false when the caller caught the show up already (the sales report, once for all).
    /// - Complexity: O(seats + sales).
    public func report(show showID: String, following: Bool = true) throws(Refusal) -> ShowReport {
        let sales: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord]
        do {
            if following { try followStore(only: [showID]) }
            sales = try store.sales(show: showID)
            refunds = try store.refunds(holdIDs: sales.map(\.record.id))
        } catch { throw Self.storeRefusal(error) }
        let names = try channelNames(of: sales)
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> ShowReport in
            let state = try state(forShow: showID, in: m)
            let layout = state.layout, prices = state.prices, a = state.committed
            var zoneCounts = [StatusCounts](repeating: StatusCounts(), count: layout.zones.count)
            var owner: [SeatIndex: (record: HoldRecord, pricing: HoldPricing)] = [:]
            var pricingOf: [String: HoldPricing] = [:]
            for sale in sales {
                let pricing = HoldPricing(stored: sale.record.prices)
                pricingOf[sale.record.id] = pricing
                for seat in sale.seats { owner[seat] = (sale.record, pricing) }
            }
            var byCategory: [String: Decimal] = [:], byChannel: [String: Decimal] = [:], byPayment: [String: Decimal] = [:]
            var net = Decimal(0), fees = Decimal(0)
            // An exchange's fee, with its sale's channel and payment (not a price category: a fee buys no seat).
            for sale in sales {
                guard let fee = pricingOf[sale.record.id]?.fee else { continue }
                fees += fee
                byChannel[salesChannel(sale.record, names: names, in: state), default: 0] += fee
                byPayment[Self.paymentWord(sale.record) ?? "unknown", default: 0] += fee
            }
            var rows: [ShowReport.SeatRow] = []
            rows.reserveCapacity(layout.seatCount)
            for seat in layout.seatIndices {
                let status = a[seat]
                let zone = layout.zone(of: seat)
                zoneCounts[layout.zoneIndex(of: seat)][status] += 1
                // A sold seat at the price it was sold at; any other at today's.
                let sold = status == .sold ? owner[seat] : nil, sale = sold?.record
                let price = sold.map { state.price(of: seat, $0.pricing) } ?? prices.price(of: seat)
                if status == .sold {
                    net += price
                    byCategory[zone.category, default: 0] += price
                    let channel = sale.map { salesChannel($0, names: names, in: state) } ?? "unknown"
                    byChannel[channel, default: 0] += price
                    byPayment[sale.flatMap(Self.paymentWord) ?? "unknown", default: 0] += price
                }
                rows.append(
                    ShowReport.SeatRow(
                        seatID: layout.seatID(seat), row: layout.rows[layout.rowIndex(of: seat)].label, zone: zone.id, category: zone.category,
                        status: status, price: Money(price, of: prices.table), orderRef: sale?.orderRef,
                        channel: sale.map { salesChannel($0, names: names, in: state) }, payment: sale.flatMap(Self.paymentWord)))
            }
            var refunded = Decimal(0)
            for r in refunds where r.seat < layout.seatCount && !r.isSeasonRelease {
                // A buyer's refund fee (refundTiers) is kept, like an exchange's: only the rest went back.
                refunded += state.price(of: r.seat, pricingOf[r.holdID] ?? HoldPricing(revision: 0)) - (r.fee ?? 0)
                fees += r.fee ?? 0
            }
            func money(_ d: Decimal) -> Money { Money(d, of: prices.table) }
            func split(_ d: [String: Decimal]) -> [(String, Money)] { d.keys.sorted().map { ($0, money(d[$0]!)) } }
            return ShowReport(
                showID: showID, version: a.version, seatCount: layout.seatCount, counts: a.counts,
                zones: layout.zones.indices.map { ShowReport.ZoneRow(zone: layout.zones[$0].id, category: layout.zones[$0].category, counts: zoneCounts[$0]) },
                currency: prices.table.currency, gross: money(net + fees + refunded), refunded: money(refunded), net: money(net + fees), fees: money(fees),
                byCategory: split(byCategory), byChannel: split(byChannel), byPayment: split(byPayment),
                orders: Set(sales.compactMap(\.record.orderRef)).count, refundedSeats: refunds.count,
                exchangedSeats: refunds.filter { $0.exchangedTo != nil }.count, seats: rows)
        }
    }

    /// Shows starting in `[from, to)` (Unix milliseconds), in start order, with their start as written.
    /// - Complexity: O(shows).
    public func shows(startingFrom from: Int64, to: Int64) -> [(id: String, startsAt: String)] {
        locked { m in
            m.shows.values.filter { s in s.startsAtMilliseconds.map { $0 >= from && $0 < to } ?? false }
                .sorted { ($0.record.startsAt, $0.record.id) < ($1.record.startsAt, $1.record.id) }.map { ($0.record.id, $0.record.startsAt) }
        }
    }
}

/// Sales across shows (`GET /v1/reports/sales`): per show, per day (the show's own date, as its start is
/// written) and in all, each currency apart. Each show's figures are its report's, so the two agree.
public struct SalesReport: Sendable {
    public struct ShowRow: Sendable {
        public var showID: String
        public var startsAt: String
        public var seats: Int
        public var sold: Int
        public var orders: Int
        public var gross: Money
        public var refunded: Money
        public var net: Money
        public var refundedSeats: Int
        public var exchangedSeats: Int
        /// Tickets scanned in at the door at least once.
        public var came: Int
    }
    /// Shows, seats, sold seats, people who came and money of one currency, summed.
    public struct Sum: Sendable {
        public var currency: String
        public var shows = 0, seats = 0, sold = 0, came = 0
        public var gross: Money, refunded: Money, net: Money

        init(currency: String) {
            self.currency = currency
            (gross, refunded, net) = (Money(0, currency: currency, digits: 0), Money(0, currency: currency, digits: 0), Money(0, currency: currency, digits: 0))
        }

        mutating func add(_ row: ShowRow) {
            shows += 1; seats += row.seats; sold += row.sold; came += row.came
            gross += row.gross; refunded += row.refunded; net += row.net
        }
    }
    public var from: Int64
    public var to: Int64
    public var shows: [ShowRow]
    /// By date (`2026-12-01`), then by currency.
    public var days: [(date: String, sums: [Sum])]
    /// By currency.
    public var totals: [Sum]
}

extension Inventory {
    /// Sales of the shows starting in `[from, to)` (Unix milliseconds). A show whose report cannot be
    /// made fails the whole report, naming the show: a total that silently left a show out would be
    /// wrong in the one place a manager trusts it.
    /// - Complexity: O(shows × (seats + sales)).
    /// `including`: the shows counted (an operator's cinemas'); every one by default.
    public func salesReport(from: Int64, to: Int64, including: (String) -> Bool = { _ in true }) throws(Refusal) -> SalesReport {
        var rows: [SalesReport.ShowRow] = []
        var days: [String: [String: SalesReport.Sum]] = [:], totals: [String: SalesReport.Sum] = [:]
        let listed = shows(startingFrom: from, to: to).filter { including($0.id) }
        do { try followStore(only: Set(listed.map(\.id))) } catch { throw Self.storeRefusal(error) }
        for (id, startsAt) in listed {
            let report: ShowReport
            do { report = try self.report(show: id, following: false) } catch {
                var failed = error
                failed.detail = "the report of show \(id) could not be made, so the sales report would leave it out: \(error.detail)"
                throw failed
            }
            let came: Int
            do { came = try checkInCounts(show: id).came } catch {
                var failed = error
                failed.detail = "the door's counts of show \(id) could not be read, so the sales report would leave them out: \(error.detail)"
                throw failed
            }
            let row = SalesReport.ShowRow(
                showID: id, startsAt: startsAt, seats: report.seatCount, sold: report.counts.sold, orders: report.orders, gross: report.gross,
                refunded: report.refunded, net: report.net, refundedSeats: report.refundedSeats, exchangedSeats: report.exchangedSeats, came: came)
            rows.append(row)
            days[String(startsAt.prefix(10)), default: [:]][report.currency, default: SalesReport.Sum(currency: report.currency)].add(row)
            totals[report.currency, default: SalesReport.Sum(currency: report.currency)].add(row)
        }
        return SalesReport(
            from: from, to: to, shows: rows,
            days: days.keys.sorted().map { day in (day, days[day]!.keys.sorted().map { days[day]![$0]! }) },
            totals: totals.keys.sorted().map { totals[$0]! })
    }
}
