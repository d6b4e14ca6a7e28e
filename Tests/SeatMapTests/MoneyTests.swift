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
    @Test func sumsAreExact() {
        var total = Money(0, currency: "CNY", digits: 2)
        for _ in 0..<10 { total += Money(Decimal(string: "0.10")!, currency: "CNY", digits: 2) }
        #expect(total.amount == Decimal(1) && total.description == "1.00")
        #expect((Money(1, currency: "CNY", digits: 0) + Money(Decimal(string: "0.5")!, currency: "CNY", digits: 2)).description == "1.50")
    }
}
