import Foundation

/// An exact amount of one currency: a `Decimal` with the currency's number of decimals. What crosses the
/// domain (a report's sums, a hold's total) is this, never text; the wire writes `description`
/// (`"116.00"`, always exactly `digits` decimals).
public struct Money: Sendable, Hashable, CustomStringConvertible {
    /// A hold's total is summed in integer minor units on the hold path and written from them (a
    /// `Decimal` sum and its formatting cost ~2 µs a hold); a report's sums are `Decimal`s.
    private enum Storage: Sendable {
        case minorUnits(Int64)
        case exact(Decimal)
    }

    private var storage: Storage
    public var currency: String
    /// Decimals the currency has (CNY 2, JPY 0).
    public var digits: Int

    public var amount: Decimal {
        get {
            switch storage {
            case .exact(let d): d
            case .minorUnits(let units): Decimal(units) / pow(Decimal(10), digits)
            }
        }
        set { storage = .exact(newValue) }
    }

    public init(_ amount: Decimal, currency: String, digits: Int) {
        storage = .exact(amount); self.currency = currency; self.digits = digits
    }

    /// `units` of the currency's smallest unit (11600 CNY fen: 116.00).
    public init(minorUnits units: Int64, currency: String, digits: Int) {
        storage = .minorUnits(units); self.currency = currency; self.digits = digits
    }

    /// Zero of `table`'s currency.
    public init(zeroOf table: PriceTable) { self.init(0, currency: table.currency, digits: table.minorUnits) }

    /// `amount` in `table`'s currency.
    public init(_ amount: Decimal, of table: PriceTable) { self.init(amount, currency: table.currency, digits: table.minorUnits) }

    /// The amount with exactly `digits` decimals, rounded half up, no symbol: `58.00`, `-3.50`.
    public var description: String {
        switch storage {
        case .minorUnits(let units): PriceTable.amountString(minorUnits: units, digits: digits)
        case .exact(let d): PriceTable.amountString(d, minorUnits: digits)
        }
    }

    /// Equal amounts of one currency are equal however they were made (`58.00` summed in fen or as a Decimal).
    public static func == (a: Money, b: Money) -> Bool { a.currency == b.currency && a.amount == b.amount }
    public func hash(into h: inout Hasher) { h.combine(currency); h.combine(amount) }

    /// The sum of two amounts of one currency; the sum keeps the larger number of decimals.
    /// - Precondition: the same currency (sums across currencies are kept apart by the caller).
    public static func + (a: Money, b: Money) -> Money {
        precondition(a.currency == b.currency, "adding \(a.currency) to \(b.currency)")
        if case .minorUnits(let x) = a.storage, case .minorUnits(let y) = b.storage, a.digits == b.digits {
            let (sum, overflow) = x.addingReportingOverflow(y)
            if !overflow { return Money(minorUnits: sum, currency: a.currency, digits: a.digits) }
        }
        return Money(a.amount + b.amount, currency: a.currency, digits: max(a.digits, b.digits))
    }

    public static func += (a: inout Money, b: Money) { a = a + b }
}
