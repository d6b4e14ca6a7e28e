import Foundation
import SeatDomain
import SeatMap
import SeatSecrets
import SeatTickets

/// A sold seat's ticket as the inventory knows it: which show and seat, which sale (the confirmed hold
/// or counter sale that sold it), and whether it still stands. Signing it is the server's
/// (`TicketIssuer`): the inventory knows sales, not keys.
public struct TicketView: Sendable {
    public var showID: String
    public var seat: SeatIndex
    public var seatID: String
    /// The seat's row and number as printed on it.
    public var rowLabel: String
    public var seatLabel: String
    public var price: Money
    public var currency: String
    /// The hold that sold the seat.
    public var sale: String
    public var orderRef: String
    /// When the ticket was revoked: the seat refunded, exchanged, or its show cancelled; nil while it
    /// stands.
    public var revokedAt: Int64?
    /// A real-name show's ticket: its generation, the door's check of its attendee, their name masked.
    public var bound: BoundTicket? = nil
}

extension Inventory {
    /// Every ticket of order `orderRef`: its seats sold now, and those refunded (revoked), in sale
    /// and seat order. A 404 when there is no such order. Reads the store: call off the lock.
    public func tickets(orderRef: String) throws(Refusal) -> [TicketView] {
        let (rows, refunds) = try storedOrder(orderRef)
        let bound = try boundTickets(of: rows)
        return locked { m in tickets(rows, refunds: refunds, orderRef: orderRef, in: m, bound: bound) }
    }

    /// The tickets of the sale a buyer's hold token became (404 for an unknown token, 409 with the
    /// hold's state for a hold not confirmed).
    public func tickets(holdToken plain: String) throws(Refusal) -> [TicketView] {
        let found: (record: HoldRecord, seats: [Int])?, refunds: [RefundRecord]
        do {
            found = try store.holdWithSeats(tokenDigest: Secrets.tokenDigest(plain))
            refunds = try found.map { try store.refunds(holdIDs: [$0.record.id]) } ?? []
        } catch { throw Self.storeRefusal(error) }
        guard let found else { throw Refusal(.notFound, detail: "no hold with this token") }
        guard found.record.state == .confirmed, let orderRef = found.record.orderRef else {
            throw Refusal(.notConfirmed, detail: "the hold is \(found.record.state.rawValue), not confirmed: it has no tickets yet")
        }
        // Exchanged: the tickets of the sales the exchanges made, as the order's page shows them.
        if refunds.contains(where: { $0.exchangedTo != nil }) { return try buyerTickets(orderRef: orderRef, code: plain) }
        let bound = try boundTickets(of: [found])
        return locked { m in tickets([found], refunds: refunds, orderRef: orderRef, in: m, bound: bound) }
    }

    /// The real-name facts of these sales' tickets (`boundTickets(show:sales:)`), by `sale\u{1F}seat`.
    func boundTickets(of rows: [(record: HoldRecord, seats: [Int])]) throws(Refusal) -> [String: BoundTicket] {
        var out: [String: BoundTicket] = [:]
        for (show, sales) in Dictionary(grouping: rows, by: \.record.showID) {
            out.merge(try boundTickets(show: show, sales: sales.map(\.record.id))) { $1 }
        }
        return out
    }

    /// Called under the lock (for the shows' layouts and prices).
    func tickets(
        _ rows: [(record: HoldRecord, seats: [Int])], refunds: [RefundRecord], orderRef: String, in m: Memory, bound: [String: BoundTicket] = [:]
    ) -> [TicketView] {
        let refunded = Dictionary(refunds.map { ("\($0.holdID)\u{1F}\($0.seat)", $0.refundedAt) }, uniquingKeysWith: min)
        var out: [TicketView] = []
        for row in rows {
            guard let state = m.shows[row.record.showID] else { continue }
            let pricing = HoldPricing(stored: row.record.prices)
            // A cancelled show's tickets all fall with it, those still standing from its cancellation.
            let cancelledAt = state.record.cancelledAt
            // In the order people read seat names: row 7 before row 10, seat 1 before seat 3.
            let seats = Set(row.seats).union(refunds.filter { $0.holdID == row.record.id }.map(\.seat)).sorted {
                state.layout.seatID($0).compare(state.layout.seatID($1), options: .numeric) == .orderedAscending
            }
            for seat in seats {
                out.append(
                    TicketView(
                        showID: row.record.showID, seat: seat, seatID: state.layout.seatID(seat),
                        rowLabel: state.layout.rows[state.layout.rowIndex(of: seat)].label, seatLabel: state.layout.seat(seat).label,
                        price: state.money(of: seat, pricing),
                        currency: state.prices.table.currency, sale: row.record.id, orderRef: orderRef,
                        revokedAt: row.seats.contains(seat) ? cancelledAt : refunded["\(row.record.id)\u{1F}\(seat)"] ?? cancelledAt,
                        bound: bound["\(row.record.id)\u{1F}\(seat)"]))
            }
        }
        return out
    }
}

extension Inventory {
    /// The tickets of `show` that no longer stand, each as the sale and seat it was issued for: the
    /// seats refunded or exchanged so far (oldest first, as the store keeps refunds), then, once the
    /// show is cancelled, every seat still sold (an offline gate must refuse those too). A 404 for an
    /// unknown show. Reads the store: call off the lock.
    /// - Complexity: O(sales + refunds) of the show.
    public func revokedTickets(show: String) throws(Refusal) -> [(sale: String, seat: SeatIndex)] {
        try revokedTicketIDs(show: show).map { ($0.sale, $0.seat) }
    }

    /// The same with each ticket's id (16 hex digits): a real-name ticket's is its generation's, and
    /// every code a transfer or a first binding replaced is among them.
    public func revokedTicketIDs(show: String) throws(Refusal) -> [(sale: String, seat: SeatIndex, id: String)] {
        guard let cancelled = locked({ m in m.shows[show].map { $0.record.cancelledAt != nil } }) else { throw noSuchShow(show) }
        do {
            let sales = try store.sales(show: show)
            let transfers = try store.personalData?.transfers(show: show) ?? []
            var generation: [String: Int] = [:]
            for t in transfers { generation["\(t.sale)\u{1F}\(t.seat)", default: 0] += 1 }
            func id(_ sale: String, _ seat: Int) -> String {
                SHA256.hex(TicketCode.id(sale: sale, seat: seat, generation: generation["\(sale)\u{1F}\(seat)"] ?? 0))
            }
            var out = transfers.map { ($0.sale, $0.seat, $0.oldTicket) }
            out += try store.refunds(holdIDs: sales.map(\.record.id)).map { ($0.holdID, $0.seat, id($0.holdID, $0.seat)) }
            guard cancelled else { return out }
            return out + sales.flatMap { sale in sale.seats.sorted().map { (sale.record.id, $0, id(sale.record.id, $0)) } }
        } catch { throw Self.storeRefusal(error) }
    }
}
