import Foundation
import SeatMap

/// What a hold's seats cost: the show's price table of one revision, except seats priced otherwise
/// (a counter sale's overrides, seats added to a hold after a price change, at the price of that
/// moment). Kept with the hold (`HoldRecord.prices`), so a price change never reprices a live hold or
/// a sale: `@2` (revision 2), `@0;14=52.00;15=52.00`. Nil in the store is `@0`, and is what a hold at
/// revision 0 with no override writes (the buyer's hot path writes nothing more than before).
struct HoldPricing: Equatable {
    var revision: Int
    var overrides: [SeatIndex: Decimal] = [:]
    /// The exchange fee paid with a sale an exchange made (kept as `fee=5.00`; older readers skip it).
    var fee: Decimal?

    init(revision: Int, overrides: [SeatIndex: Decimal] = [:]) { self.revision = revision; self.overrides = overrides }

    /// The stored text read back (nil or unreadable parts: revision 0, no override).
    init(stored text: String?) {
        revision = 0
        guard let text, !text.isEmpty else { return }
        for (k, part) in text.split(separator: ";").enumerated() {
            if k == 0, part.hasPrefix("@") { revision = Int(part.dropFirst()) ?? 0; continue }
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == "fee" { fee = PriceTable.parseDecimal(String(pair[1])); continue }
            if pair.count == 2, let seat = Int(pair[0]), let amount = PriceTable.parseDecimal(String(pair[1])) { overrides[seat] = amount }
        }
    }

    /// The text the store keeps (nil for `@0` with no override).
    func stored(in table: PriceTable) -> String? {
        if revision == 0 && overrides.isEmpty && fee == nil { return nil }
        var text = "@\(revision)"
        for seat in overrides.keys.sorted() { text += ";\(seat)=\(table.amountString(overrides[seat]!))" }
        if let fee { text += ";fee=\(table.amountString(fee))" }
        return text
    }
}

/// Every price table a show has had, oldest first (the last is today's): a value, so what a hold's
/// answer reads of it can be copied under the inventory lock and the answer drawn after it (it was
/// drawn from the show's state itself, whose tables a price change replaces under the lock meanwhile).
struct PriceRevisions: Sendable {
    let all: [SeatPrices]

    /// Today's prices.
    var current: SeatPrices { all[all.count - 1] }

    /// The prices of `revision` (the current ones for a revision this server does not have).
    func prices(revision: Int) -> SeatPrices { revision >= 0 && revision < all.count ? all[revision] : current }

    /// What `seat` costs under `pricing`.
    /// - Complexity: O(1).
    func price(of seat: SeatIndex, _ pricing: HoldPricing) -> Decimal {
        pricing.overrides[seat] ?? prices(revision: pricing.revision).price(of: seat)
    }

    /// The total of `seats` under `pricing`, by integers when it is one revision's table.
    /// - Complexity: O(seats).
    func total(of seats: [SeatIndex], _ pricing: HoldPricing) -> Money {
        if pricing.overrides.isEmpty { return prices(revision: pricing.revision).totalMoney(of: seats) }
        return Money(seats.reduce(Decimal(0)) { $0 + price(of: $1, pricing) }, of: current.table)
    }
}

extension ShowState {
    /// The pricing a new hold or sale gets now.
    var currentPricing: HoldPricing { HoldPricing(revision: priceRevisions.count - 1) }

    /// Every table, as a value (read under the lock).
    var revisions: PriceRevisions { PriceRevisions(all: priceRevisions) }

    /// The prices of `revision` (the current ones for a revision this server does not have).
    func prices(revision: Int) -> SeatPrices { revisions.prices(revision: revision) }

    /// What `seat` costs under `pricing`.
    /// - Complexity: O(1).
    func price(of seat: SeatIndex, _ pricing: HoldPricing) -> Decimal { revisions.price(of: seat, pricing) }

    /// What `seat` costs under `pricing`, as Money of the show's currency.
    func money(of seat: SeatIndex, _ pricing: HoldPricing) -> Money { Money(price(of: seat, pricing), of: prices.table) }

    /// The total of `seats` under `pricing`, by integers when it is one revision's table.
    /// - Complexity: O(seats).
    func total(of seats: [SeatIndex], _ pricing: HoldPricing) -> Money { revisions.total(of: seats, pricing) }

    /// A hold's pricing after seats are added: the added seats at today's prices when the hold was
    /// priced under an earlier table (never repricing the seats it had); removed seats forgotten.
    func pricing(_ old: HoldPricing, adding added: [SeatIndex], removing dropped: [SeatIndex]) -> HoldPricing {
        var p = old
        for seat in dropped { p.overrides[seat] = nil }
        if p.revision != priceRevisions.count - 1 { for seat in added { p.overrides[seat] = prices.price(of: seat) } }
        return p
    }
}
