import Foundation

/// Totals in whole minor units. `Decimal` arithmetic and printing cost microseconds each on Linux (four
/// additions and one `description` were a tenth of a hold request on the server); prices without
/// multipliers are sums of integers, so totals are added and printed as `Int64` and agree exactly with
/// the `Decimal` path, which remains for everything else.
extension SeatPrices {
    /// `value` × 10^minorUnits when that is a whole number that fits 64 bits.
    static func exactMinorUnits(_ value: Decimal, minorUnits: Int) -> Int64? {
        var scaled = value
        for _ in 0..<minorUnits { scaled *= 10 }
        guard PriceTable.round(scaled, minorUnits: 0) == scaled, abs(scaled) < Decimal(Int64(1) << 53) else { return nil }
        let units = NSDecimalNumber(decimal: scaled).int64Value
        return Decimal(units) == scaled ? units : nil
    }

    /// `a + b`, nil past Int64.
    static func adding(_ a: Int64, _ b: Int64) -> Int64? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }

    /// The sum of amounts in minor units; nil when a multiplier is among `changes` or an amount is not exact.
    static func exactMinorUnits(of changes: [PriceAdjustment.Change], minorUnits: Int) -> Int64? {
        var sum: Int64 = 0
        for change in changes {
            guard case .amount(let a) = change, let units = exactMinorUnits(a, minorUnits: minorUnits) else { return nil }
            // Amounts come from input: a sum past Int64 is the Decimal path's, never a trap.
            guard let next = adding(sum, units) else { return nil }
            sum = next
        }
        return sum
    }

    /// The seat's price in minor units, or nil when only the `Decimal` path is exact for it.
    /// - Complexity: O(1).
    public func minorUnits(of seat: SeatIndex) -> Int64? {
        if !tableShares.isEmpty, let share = tableShares[seat] { return share }
        let zone = layout.zoneIndex(of: seat)
        guard var p = minorBase[zone] else { return nil }
        for part in [minorByZone[zone], minorByRow[layout.rowIndex(of: seat)], minorBySeat[seat]] {
            guard let part else { continue }  // no adjustment there
            guard let units = part, let next = Self.adding(p, units) else { return nil }
            p = next
        }
        return p
    }

    /// `table.amountString(total(of: seats))`, by integers when every seat's price allows it.
    /// - Complexity: O(seats).
    public func totalString(of seats: [SeatIndex]) -> String { totalMoney(of: seats).description }

    /// The total of `seats` as Money: summed in integer minor units when every price has them.
    /// - Complexity: O(seats).
    public func totalMoney(of seats: [SeatIndex]) -> Money {
        var sum: Int64 = 0
        for seat in seats {
            guard let p = minorUnits(of: seat), let next = Self.adding(sum, p) else { return Money(total(of: seats), of: table) }
            sum = next
        }
        return Money(minorUnits: sum, currency: table.currency, digits: table.minorUnits)
    }
}

extension PriceTable {
    /// `units` minor units with `digits` decimals: 11600, 2 → "116.00"; -350, 2 → "-3.50".
    public static func amountString(minorUnits units: Int64, digits: Int) -> String {
        var divisor: Int64 = 1
        for _ in 0..<digits { divisor *= 10 }
        let magnitude = units.magnitude
        let (whole, fraction) = magnitude.quotientAndRemainder(dividingBy: UInt64(divisor))
        var text = units < 0 ? "-" : ""
        text += String(whole)
        if digits > 0 {
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }
}
