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
        let json =
            #"{"currency":"CNY","categories":{"std":"40.00","vip":"60"},"adjustments":[{"row":"2","amount":"-5.50"},{"seat":"2-1","multiplier":"1.15"}]}"#
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
            _ = try SeatPrices(
                table: PriceTable(categoryPrices: ["std": 1], adjustments: [PriceAdjustment(target: .row("9"), change: .amount(1))]), layout: layout)
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "categories: no price for category \"vip\" (zone \"vip\")",
                "adjustments[0].row: unknown row \"9\"",
            ]
        }
    }

    /// Prices are never changed silently (#26 item 5): more decimals than the currency has, a number where
    /// the contract says text, and an adjustment that takes a seat below zero are each refused, naming where.
    @Test func pricesThatWouldChangeSilentlyAreRefused() throws {
        func problems(_ json: String) -> [String] {
            do {
                _ = try SeatPrices(table: PriceTable(json: Array(json.utf8)), layout: layout)
                return []
            } catch { return error.problems.map(\.description) }
        }
        #expect(
            problems(#"{"categories":{"std":"1.0000000001","vip":"2"}}"#) == [
                "categories.std: \"1.0000000001\" has more decimals than CNY has (2); the amount would change"
            ])
        #expect(
            problems(#"{"categories":{"std":"1","vip":"2"},"adjustments":[{"row":"1","amount":"0.001"}]}"#) == [
                "adjustments[0].amount: \"0.001\" has more decimals than CNY has (2); the amount would change"
            ])
        #expect(
            problems(#"{"categories":{"std":33.3,"vip":"58"}}"#) == [
                "categories.std: expected a decimal amount as text like \"33.30\", got the number 33.3"
            ])
        #expect(problems(#"{"categories":{"std":"1","vip":"2"},"adjustments":[{"zone":"std","multiplier":1.2}]}"#).count == 1)
        #expect(
            problems(#"{"categories":{"std":"10","vip":"20"},"adjustments":[{"row":"2","amount":"-5"},{"seat":"2-1","amount":"-6"}]}"#) == [
                "adjustments[1]: takes seat \"2-1\" below zero (-1.00); a price must not be negative"
            ])
        #expect(problems(#"{"currency":"JPY","minorUnits":0,"categories":{"std":"100","vip":"0.5"}}"#).count == 1)
        // Exactly zero is a price (a free companion seat), and more decimals than 2 are fine where the currency has them.
        #expect(problems(#"{"categories":{"std":"10","vip":"20"},"adjustments":[{"seat":"2-1","amount":"-10"}]}"#) == [])
        #expect(problems(#"{"currency":"BHD","minorUnits":3,"categories":{"std":"1.005","vip":"2"}}"#) == [])
    }

    @Test func jsonRoundTrips() throws {
        let table = PriceTable(
            currency: "USD", categoryPrices: ["std": Decimal(string: "12.5")!],
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

    /// Totals by integers agree with the Decimal path for every seat set, with amounts, a multiplier
    /// (the Decimal path then) and a discount to exactly zero; amounts print the same either way.
    @Test func integerTotalsAgreeWithDecimalTotals() throws {
        let layout = venue(["SSSSSS", "SSSSSS", "SSSSSS"], zones: ["std", "vip"])
        let json =
            #"{"currency":"CNY","categories":{"std":"33.30","vip":"58"},"adjustments":[{"row":"2","amount":"-5.55"},{"zone":"vip","amount":"0.05"},{"seat":"3-1","multiplier":"1.15"},{"seat":"1-2","amount":"-33.30"}]}"#
        let prices = try SeatPrices(table: PriceTable(json: Array(json.utf8)), layout: layout)
        #expect(prices.minorUnits(of: layout.index(ofSeatID: "3-1")!) == nil)
        #expect(prices.minorUnits(of: layout.index(ofSeatID: "1-2")!) == 0)
        #expect(prices.minorUnits(of: layout.index(ofSeatID: "2-1")!) == 2775)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let seats = (0..<Int.random(in: 1...6, using: &rng)).map { _ in Int.random(in: 0..<layout.seatCount, using: &rng) }
            #expect(prices.totalString(of: seats) == prices.table.amountString(prices.total(of: seats)), "\(seats)")
        }
        for _ in 0..<2000 {
            let units = Int64.random(in: -10_000_000...10_000_000, using: &rng), digits = Int.random(in: 0...3, using: &rng)
            var value = Decimal(units)
            for _ in 0..<digits { value /= 10 }
            let table = PriceTable(minorUnits: digits, categoryPrices: [:])
            #expect(PriceTable.amountString(minorUnits: units, digits: digits) == table.amountString(value), "\(units) \(digits)")
        }
        let yen = try SeatPrices(
            table: PriceTable(currency: "JPY", minorUnits: 0, categoryPrices: ["std": Decimal(string: "0.5")!, "vip": 1500]), layout: layout)
        #expect(yen.minorUnits(of: 0) == nil)  // half a yen is not a whole minor unit: the Decimal path
        #expect(yen.totalString(of: [0, 1]) == yen.table.amountString(yen.total(of: [0, 1])))
    }
}
