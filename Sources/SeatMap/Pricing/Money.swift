import Foundation

/// An exact amount of one currency: a `Decimal` with the currency's number of decimals. What crosses the
/// domain (a report's sums, a hold's total) is this, never text; the wire writes `description`
/// (`"116.00"`, always exactly `digits` decimals).
public struct Money: Sendable, Hashable, CustomStringConvertible {
    public var amount: Decimal
    public var currency: String
    /// Decimals the currency has (CNY 2, JPY 0).
    public var digits: Int

    public init(_ amount: Decimal, currency: String, digits: Int) {
        self.amount = amount; self.currency = currency; self.digits = digits
    }

    /// Zero of `table`'s currency.
    public init(zeroOf table: PriceTable) { self.init(0, currency: table.currency, digits: table.minorUnits) }

    /// `amount` in `table`'s currency.
    public init(_ amount: Decimal, of table: PriceTable) { self.init(amount, currency: table.currency, digits: table.minorUnits) }

    /// The amount with exactly `digits` decimals, rounded half up, no symbol: `58.00`, `-3.50`.
    public var description: String { PriceTable.amountString(amount, minorUnits: digits) }

    /// The sum of two amounts of one currency; the sum keeps the larger number of decimals.
    /// - Precondition: the same currency (sums across currencies are kept apart by the caller).
    public static func + (a: Money, b: Money) -> Money {
        precondition(a.currency == b.currency, "adding \(a.currency) to \(b.currency)")
        return Money(a.amount + b.amount, currency: a.currency, digits: max(a.digits, b.digits))
    }

    public static func += (a: inout Money, b: Money) { a = a + b }
}
