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
        public var price: String
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
    public var gross: String
    public var refunded: String
    public var net: String
    public var byCategory: [(String, String)]
    public var byChannel: [(String, String)]
    public var byPayment: [(String, String)]
    public var orders: Int
    public var refundedSeats: Int
    public var seats: [SeatRow]
}

extension Inventory {
    /// The show's report: statuses from memory as committed, sales and refunds from the store (read
    /// outside the lock; a sale committed between the two reads is in one and not yet the other, so
    /// the report says which version it counts).
    /// - Complexity: O(seats + sales).
    public func report(show showID: String) throws(Refusal) -> ShowReport {
        let sales: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord]
        do {
            sales = try store.sales(show: showID)
            refunds = try store.refunds(holdIDs: sales.map(\.record.id))
        } catch { throw Self.storeRefusal(error) }
        return try locked { (m: Memory) throws(Refusal) -> ShowReport in
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
            var net = Decimal(0)
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
                    let channel = sale.map { $0.kind == .buyer ? "online" : "counter" } ?? "unknown"
                    byChannel[channel, default: 0] += price
                    byPayment[sale?.payment ?? (sale?.kind == .buyer ? "online" : "unknown"), default: 0] += price
                }
                rows.append(
                    ShowReport.SeatRow(
                        seatID: layout.seatID(seat), row: layout.rows[layout.rowIndex(of: seat)].label, zone: zone.id, category: zone.category,
                        status: status, price: prices.table.amountString(price), orderRef: sale?.orderRef,
                        channel: sale.map { $0.kind == .buyer ? "online" : "counter" }, payment: sale?.payment ?? (sale?.kind == .buyer ? "online" : nil)))
            }
            var refunded = Decimal(0)
            for r in refunds where r.seat < layout.seatCount { refunded += state.price(of: r.seat, pricingOf[r.holdID] ?? HoldPricing(revision: 0)) }
            func money(_ d: Decimal) -> String { prices.table.amountString(d) }
            func split(_ d: [String: Decimal]) -> [(String, String)] { d.keys.sorted().map { ($0, money(d[$0]!)) } }
            return ShowReport(
                showID: showID, version: a.version, seatCount: layout.seatCount, counts: a.counts,
                zones: layout.zones.indices.map { ShowReport.ZoneRow(zone: layout.zones[$0].id, category: layout.zones[$0].category, counts: zoneCounts[$0]) },
                currency: prices.table.currency, gross: money(net + refunded), refunded: money(refunded), net: money(net),
                byCategory: split(byCategory), byChannel: split(byChannel), byPayment: split(byPayment),
                orders: Set(sales.compactMap(\.record.orderRef)).count, refundedSeats: refunds.count, seats: rows)
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
