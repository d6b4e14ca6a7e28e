import Foundation
import SeatMap
import Testing

@Suite struct MoneyTests {
    @Test func writesExactlyItsDecimals() {
        #expect(Money(Decimal(116), currency: "CNY", digits: 2).description == "116.00")
        #expect(Money(Decimal(string: "33.3")!, currency: "CNY", digits: 2).description == "33.30")
        #expect(Money(Decimal(string: "-3.5")!, currency: "CNY", digits: 2).description == "-3.50")
        #expect(Money(Decimal(string: "0.005")!, currency: "CNY", digits: 2).description == "0.01", "half up")
        #expect(Money(Decimal(1200), currency: "JPY", digits: 0).description == "1200")
    }

    /// Sums stay exact where Double would not: ten times 0.10 is 1.00.
    /// A hold's total summed in minor units is the same Money as the Decimal sum: equal, hashed alike,
    /// written alike; a sum past Int64 goes on in Decimal instead of wrapping.
    @Test func minorUnitsAndDecimalsAreOneAmount() {
        let fen = Money(minorUnits: 11_600, currency: "CNY", digits: 2)
        let exact = Money(Decimal(string: "116")!, currency: "CNY", digits: 2)
        #expect(fen == exact && fen.hashValue == exact.hashValue && fen.description == "116.00" && exact.description == "116.00")
        #expect(fen.amount == Decimal(116))
        #expect((fen + Money(minorUnits: -350, currency: "CNY", digits: 2)).description == "112.50")
        #expect(Money(minorUnits: 5, currency: "JPY", digits: 0).description == "5")
        let huge = Money(minorUnits: .max, currency: "CNY", digits: 2) + Money(minorUnits: 1, currency: "CNY", digits: 2)
        #expect(huge.amount == Decimal(Int64.max) / 100 + Decimal(string: "0.01")!, "no wrap-around")
        #expect(fen != Money(minorUnits: 11_600, currency: "USD", digits: 2))
    }

    @Test func sumsAreExact() {
        var total = Money(0, currency: "CNY", digits: 2)
        for _ in 0..<10 { total += Money(Decimal(string: "0.10")!, currency: "CNY", digits: 2) }
        #expect(total.amount == Decimal(1) && total.description == "1.00")
        #expect((Money(1, currency: "CNY", digits: 0) + Money(Decimal(string: "0.5")!, currency: "CNY", digits: 2)).description == "1.50")
    }
}
