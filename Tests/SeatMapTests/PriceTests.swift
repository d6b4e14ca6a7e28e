import Foundation
import Testing
@testable import SeatMap

@Suite struct PriceTests {
    let layout = venue(["SSSS", "SSSS"], zones: ["std", "vip"])

    @Test func totalsAreExact() throws {
        let prices = try SeatPrices(table: PriceTable(categoryPrices: ["std": Decimal(string: "33.30")!, "vip": 58]), layout: layout)
        let total = prices.total(of: [0, 1, 2])
        #expect(total == Decimal(string: "99.90")!)
        #expect(prices.format(total) == "¥99.90")
        #expect(prices.format(Decimal(58)) == "¥58.00")
    }

    @Test func adjustmentsApplyInOrderAndRound() throws {
        let json = #"{"currency":"CNY","categories":{"std":"40.00","vip":"60"},"adjustments":[{"row":"2","amount":"-5.50"},{"seat":"2-1","multiplier":"1.15"}]}"#
        let table = try PriceTable(json: Array(json.utf8))
        let prices = try SeatPrices(table: table, layout: layout)
        #expect(prices.price(of: layout.index(ofSeatID: "1-1")!) == 40)
        #expect(prices.price(of: layout.index(ofSeatID: "2-2")!) == Decimal(string: "34.5")!)
        // (40 - 5.50) × 1.15 = 39.675 → 39.68 (rounded half up to the fen)
        #expect(prices.price(of: layout.index(ofSeatID: "2-1")!) == Decimal(string: "39.68")!)
    }

    @Test func badTablesNameTheirProblems() {
        let json = #"{"categories":{"std":"12a"},"adjustments":[{"row":"9","amount":"1"},{"seat":"1-1","zone":"std","amount":"1"},{"seat":"1-1"}]}"#
        #expect {
            let table = try PriceTable(json: Array(json.utf8))
            _ = try SeatPrices(table: table, layout: layout)
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "categories.std: expected a decimal amount like \"33.30\", got \"12a\"",
                "adjustments[1]: name exactly one of zone, row or seat",
                "adjustments[2]: give exactly one of amount or multiplier",
            ]
        }
        #expect {
            _ = try SeatPrices(table: PriceTable(categoryPrices: ["std": 1], adjustments: [PriceAdjustment(target: .row("9"), change: .amount(1))]), layout: layout)
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "categories: no price for category \"vip\" (zone \"vip\")",
                "adjustments[0].row: unknown row \"9\"",
            ]
        }
    }

    @Test func jsonRoundTrips() throws {
        let table = PriceTable(currency: "USD", categoryPrices: ["std": Decimal(string: "12.5")!],
                               adjustments: [PriceAdjustment(target: .zone("std"), change: .multiplier(Decimal(string: "0.9")!))])
        #expect(try PriceTable(json: table.jsonBytes()) == table)
        #expect(table.format(Decimal(string: "-3.5")!) == "-$3.50")
    }

    @Test(arguments: ["1", "-2.50", "0.005"]) func strictDecimalsParse(text: String) {
        #expect(PriceTable.parseDecimal(text) == Decimal(string: text))
    }

    @Test(arguments: ["", "1.", ".5", "1e3", "12a", "--1", "1,5", " 1"]) func looseDecimalsDoNot(text: String) {
        #expect(PriceTable.parseDecimal(text) == nil)
    }
}
