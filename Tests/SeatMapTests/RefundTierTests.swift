import Foundation
import SeatJSON
import Testing

@testable import SeatMap

/// A show's refund fees by time (`AfterSalePolicy.refundTiers`): which tier a moment falls in, and what
/// a seat's fee is, rounded as money is.
@Suite struct RefundTierTests {
    static func policy(_ json: String) -> (AfterSalePolicy?, [String]) {
        var log = ProblemLog()
        let value = try! JSONParser.parse(Array(json.utf8))
        let p = AfterSalePolicy(jsonValue: value, at: "afterSale", into: &log)
        return (p, log.problems.map(\.path))
    }

    @Test func aMomentFallsInTheEarliestTierNotYetPassed() throws {
        let (read, problems) = Self.policy(#"{"refundTiers":[{"until":120,"fee":"¥10"},{"until":10080,"fee":"0%"},{"until":1440,"fee":"20%"}]}"#)
        let p = try #require(read, "\(problems)")
        #expect(p.refundTiers.map(\.until) == [10080, 1440, 120] && p.refundMinutes == 120)
        let minute: Int64 = 60_000
        #expect(p.refundTier(millisecondsBeforeStart: 20_000 * minute)?.feeText == "0%")
        #expect(p.refundTier(millisecondsBeforeStart: 10_080 * minute)?.feeText == "20%", "a tier's end is its last moment's, not its own")
        #expect(p.refundTier(millisecondsBeforeStart: 10_080 * minute + 1)?.feeText == "0%")
        #expect(p.refundTier(millisecondsBeforeStart: 600 * minute)?.feeText == "10")
        #expect(p.refundTier(millisecondsBeforeStart: 120 * minute) == nil, "after the last tier refunds are closed")
        #expect(AfterSalePolicy.standard.refundTier(millisecondsBeforeStart: 600 * minute) == nil)
    }

    @Test func aFeeIsRoundedHalfUpAndNeverMoreThanThePrice() throws {
        let share = RefundTier(until: 60, fee: .percent(Decimal(string: "12.5")!))
        #expect(share.fee(of: Decimal(string: "33.33")!, minorUnits: 2) == Decimal(string: "4.17"), "4.16625 → 4.17")
        #expect(share.fee(of: Decimal(string: "0.04")!, minorUnits: 2) == Decimal(string: "0.01"), "0.005 → 0.01")
        #expect(share.fee(of: 99, minorUnits: 0) == 12, "12.375 yen → 12")
        let flat = RefundTier(until: 60, fee: .amount(10))
        #expect(flat.fee(of: 58, minorUnits: 2) == 10 && flat.fee(of: 8, minorUnits: 2) == 8, "a ¥10 fee on an ¥8 seat keeps ¥8, no more")
        #expect(RefundTier(until: 0, fee: .percent(100)).fee(of: 58, minorUnits: 2) == 58)
    }

    @Test func feesAreReadAsWrittenAndWrittenBackCanonically() throws {
        for (given, written) in [("20%", "20%"), ("12.50%", "12.5%"), ("100%", "100%"), ("¥10.00", "10.00"), ("￥8", "8"), ("5.5", "5.5")] {
            let (p, problems) = Self.policy(#"{"refundTiers":[{"until":60,"fee":"\#(given)"}]}"#)
            #expect(p?.refundTiers.first?.feeText == written, "\(given): \(problems)")
        }
        for bad in ["101%", "007%", "-5%", "%", "ten", "¥", "10.001", "$10", "1234567"] {
            let (p, problems) = Self.policy(#"{"refundTiers":[{"until":60,"fee":"\#(bad)"}]}"#)
            #expect(p == nil && problems == ["afterSale.refundTiers[0].fee"], "\(bad): \(problems)")
        }
        var w = JSONWriter()
        Self.policy(#"{"refundTiers":[{"until":60,"fee":"¥10.00"}],"oneRefundPerBuyer":true,"refundRelease":"2026-12-20T12:00:00+08:00"}"#).0?
            .write(into: &w)
        #expect(
            w.text
                == #"{"exchanges":1,"exchangeMinutes":30,"exchangeFee":"0","refunds":true,"refundMinutes":60,"refundTiers":[{"until":60,"fee":"10.00"}],"oneRefundPerBuyer":true,"refundRelease":"2026-12-20T12:00:00+08:00"}"#
        )
    }
}
