import Foundation
import SeatDomain
import SeatMap

/// A big show's refund terms for its buyers (#54): a fee by how early the refund is (`refundTiers`),
/// one refund a buyer (`oneRefundPerBuyer`), and what each seat would give back now, which the order
/// page shows before the buyer confirms (the page never works a fee out itself).
extension Inventory {
    /// What a buyer's refund records as its operator (`OrderActor.buyer`'s name).
    static let buyerName = "buyer"

    /// One refund a buyer a show: a buyer's refund of this show's part of the order (not an exchange)
    /// refuses another; the box office can still refund. Called under the lock.
    func checkOneRefund(
        _ policy: AfterSalePolicy, state: ShowState, scope: Set<String>, rows: [(record: HoldRecord, seats: [Int])], earlier: [RefundRecord]
    ) throws(Refusal) {
        guard policy.oneRefundPerBuyer else { return }
        let sales = Set(rows.filter { scope.contains($0.record.id) && $0.record.showID == state.record.id }.map(\.record.id))
        guard let used = earlier.first(where: { sales.contains($0.holdID) && $0.operatorName == Self.buyerName && $0.exchangedTo == nil })
        else { return }
        throw Refusal(
            .afterSaleClosed,
            detail:
                "show \(state.record.id) takes one refund a buyer, and this order's was made at \(Self.isoTime(used.refundedAt)); the box office can still help"
        )
    }

    /// Each seat the buyer may refund now with its price, its fee by the tier of now, and what it
    /// would give back; empty when refunds are closed to them. Called under the lock.
    func refundQuote(
        _ policy: AfterSalePolicy, state: ShowState, mine: [(record: HoldRecord, seats: [Int])], scope: Set<String>, refunds: [RefundRecord]
    ) -> (tier: RefundTier?, seats: [AfterSaleTerms.SeatRefund]) {
        let now = clock()
        guard policy.refunds, let starts = state.startsAtMilliseconds, now < starts - Int64(policy.refundMinutes) * 60_000 else { return (nil, []) }
        if (try? checkOneRefund(policy, state: state, scope: scope, rows: mine, earlier: refunds)) == nil { return (nil, []) }
        let tier = policy.refundTier(millisecondsBeforeStart: starts - now), table = state.prices.table
        var out: [(seat: SeatIndex, quote: AfterSaleTerms.SeatRefund)] = []
        for row in mine where row.record.showID == state.record.id {
            let pricing = HoldPricing(stored: row.record.prices)
            for seat in row.seats where state.availability[seat] == .sold {
                let price = state.price(of: seat, pricing), fee = tier?.fee(of: price, minorUnits: table.minorUnits) ?? 0
                let quote = AfterSaleTerms.SeatRefund(
                    seatID: state.layout.seatID(seat), price: Money(price, of: table), fee: Money(fee, of: table), back: Money(price - fee, of: table))
                out.append((seat, quote))
            }
        }
        return (tier, out.sorted { $0.seat < $1.seat }.map(\.quote))
    }
}
