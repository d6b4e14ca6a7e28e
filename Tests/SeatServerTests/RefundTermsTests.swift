import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatServer
import SeatServerTestSupport
import SeatWire
import Testing

/// A big show's refund terms (#54, item 6) over real HTTP on both stores: a fee by how early the
/// refund is, shown to the buyer seat by seat before they confirm and kept by the show (its order, its
/// report, its takings); one refund a buyer; refunded seats kept back to an announced time; bad terms
/// refused with the member that is wrong.
@Suite(.serialized) struct RefundTermsTests {
    static let li = ExchangeTests.li
    static let admin = ExchangeTests.admin
    /// Free up to 5,000 minutes before, 20 % up to a day before, ¥10 a seat up to two hours before.
    static let tiers = #"[{"until":120,"fee":"¥10.00"},{"until":5000,"fee":"0%"},{"until":1440,"fee":"20%"}]"#

    func buy(_ c: HTTPConnection, _ seats: [String], show: String, ref: String) throws -> String {
        let made = try hold(c, seats, show: show)
        let code = try #require(made.string("token"), "\(made.text)")
        let confirmed = try c.request("POST", "/v1/holds/\(code)/confirm", json: #"{"orderRef":"\#(ref)"}"#)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        return code
    }

    func terms(_ c: HTTPConnection, _ ref: String, code: String) throws -> OrderResource.Terms {
        let view = try c.request("GET", "/v1/orders/\(ref)?code=\(code)")
        #expect(view.status == 200, "\(view.text)")
        return try #require(try OrderResource(json: view.body).afterSale?.first)
    }

    @Test(arguments: StoreBackend.available) func aBuyersRefundCostsTheTierOfNowAndOnlyOnce(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        // Three days out (4,320 minutes): the 20 % tier.
        try ExchangeTests().makeShow(
            c, "big", startsIn: 3 * 24 * 60, standard: "58", details: #"{"afterSale":{"refundTiers":\#(Self.tiers),"oneRefundPerBuyer":true}}"#)
        let show = try c.request("GET", "/v1/shows/big")
        let written = show.json?["details"]?.objectValue?["afterSale"]?.objectValue
        #expect(written?["refundMinutes"]?.intValue == 120, "refunds close with the last tier: \(show.text)")
        #expect(written?["refundTiers"]?.arrayValue?.compactMap { $0.objectValue?["fee"]?.stringValue } == ["0%", "20%", "10.00"], "latest last")
        let code = try buy(c, ["7-1", "7-2", "7-3"], show: "big", ref: "BIG-1")
        // Before confirming, the buyer sees each seat's fee and what it gives back, worked out by the server.
        let t = try terms(c, "BIG-1", code: code)
        #expect(t.refundFee == "20%" && t.oneRefundPerBuyer && t.refundTiers.map(\.fee) == ["0%", "20%", "10.00"], "\(t)")
        #expect(Set(t.refundSeats.map(\.seat)) == ["7-1", "7-2", "7-3"])
        #expect(t.refundSeats.allSatisfy { Decimal(string: $0.fee) == Decimal(string: $0.price)! / 5 }, "\(t.refundSeats)")
        #expect(t.refundSeats.allSatisfy { Decimal(string: $0.back)! + Decimal(string: $0.fee)! == Decimal(string: $0.price)! })
        let price = try #require(Decimal(string: t.refundSeats[0].price)), fee = try #require(Decimal(string: t.refundSeats[0].fee))
        // The refund keeps the fee, and says so in the order.
        let refund = try c.request("POST", "/v1/orders/BIG-1/refund", json: #"{"seats":["7-1","7-2"],"code":"\#(code)"}"#)
        #expect(refund.status == 200, "\(refund.text)")
        let order = try OrderResource(json: refund.body)
        #expect(
            Set(order.refunds.map(\.seat)) == ["7-1", "7-2"] && order.refunds.allSatisfy { $0.fee.flatMap { Decimal(string: $0) } == fee }, "\(refund.text)")
        // One refund a buyer: the last seat is theirs to keep (the box office can still help), and the terms say none is left.
        let again = try c.request("POST", "/v1/orders/BIG-1/refund", json: #"{"seats":["7-3"],"code":"\#(code)"}"#)
        #expect(again.status == 409 && again.string("type") == "/problems/after-sale-closed", "\(again.text)")
        #expect((again.string("detail") ?? "").contains("one refund a buyer"), "\(again.text)")
        #expect(try terms(c, "BIG-1", code: code).refundSeats.isEmpty)
        let desk = try c.request("POST", "/v1/orders/BIG-1/refund", json: #"{"seats":["7-3"],"reason":"guest ill"}"#, headers: Self.li)
        #expect(desk.status == 200, "\(desk.text)")
        #expect(try OrderResource(json: desk.body).refunds.first { $0.seat == "7-3" }?.fee == nil, "the box office charges no fee")
        // The report keeps the fees: three seats sold and refunded, two fees kept.
        let report = try ShowReportResource(json: c.request("GET", "/v1/shows/big/report", headers: Self.li).body)
        #expect(Decimal(string: report.fees) == 2 * fee && Decimal(string: report.refunded) == 3 * price - 2 * fee, "\(report)")
        #expect(Decimal(string: report.gross) == 3 * price && Decimal(string: report.net) == 2 * fee, "\(report)")
        // And the takings of the day: taken 3 × price, refunded all but the fees.
        let day = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400)).prefix(10),
            end = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400)).prefix(10)
        let takings = try TakingsResource(json: c.request("GET", "/v1/reports/takings?from=\(day)&to=\(end)", headers: Self.li).body)
        let total = try #require(takings.totals.first)
        #expect(Decimal(string: total.taken) == 3 * price && Decimal(string: total.net) == 2 * fee, "\(total)")
    }

    @Test(arguments: StoreBackend.available) func theTierFollowsTheClock(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        // 4 days out: free; 10 hours out: ¥10 a seat; 1 hour out: closed (the last tier ends 2 hours before).
        for (id, minutes, fee) in [("early", 4.0 * 24 * 60, "0%"), ("late", 10.0 * 60, "10.00"), ("closed", 60.0, nil)] {
            try ExchangeTests().makeShow(c, id, startsIn: minutes, standard: "58", details: #"{"afterSale":{"refundTiers":\#(Self.tiers)}}"#)
            let code = try buy(c, ["7-1"], show: id, ref: "R-\(id)")
            let t = try terms(c, "R-\(id)", code: code)
            #expect(t.refundFee == fee, "\(id): \(t)")
            #expect(t.refundSeats.count == (fee == nil ? 0 : 1), "\(id)")
            let refund = try c.request("POST", "/v1/orders/R-\(id)/refund", json: #"{"code":"\#(code)"}"#)
            if fee == nil {
                #expect(refund.status == 409 && refund.string("type") == "/problems/after-sale-closed", "\(refund.text)")
            } else {
                let kept = try OrderResource(json: refund.body).refunds.first?.fee
                #expect(refund.status == 200 && kept == (fee == "0%" ? nil : "10.00"), "\(id): \(refund.text)")
            }
        }
    }

    @Test(arguments: StoreBackend.available) func refundedSeatsGoBackOnSaleTogetherAtTheAnnouncedTime(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        let release = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 2).rounded(.up))
        let at = ISO8601DateFormatter().string(from: release)
        try ExchangeTests().makeShow(c, "batch", startsIn: 3 * 24 * 60, details: #"{"afterSale":{"refundRelease":"\#(at)"}}"#)
        let code = try buy(c, ["7-1", "7-2"], show: "batch", ref: "B-1")
        #expect(try terms(c, "B-1", code: code).refundRelease != nil)
        try ExchangeTests().sell(c, "batch", ["8-1"], ref: "B-2")
        // The buyer's refund and the box office's: both kept off sale until the announced time.
        #expect(try c.request("POST", "/v1/orders/B-1/refund", json: #"{"seats":["7-1"],"code":"\#(code)"}"#).status == 200)
        #expect(try c.request("POST", "/v1/orders/B-2/refund", json: #"{"reason":"moved"}"#, headers: Self.li).status == 200)
        #expect(try ExchangeTests().statuses(server, "batch", ["7-1", "7-2", "8-1"]) == ["blocked", "sold", "blocked"])
        let taken = try hold(c, ["7-1"], show: "batch")
        #expect(taken.status == 409, "not for sale before the time: \(taken.text)")
        // At the time, together.
        let deadline = release.addingTimeInterval(5)
        while Date() < deadline, try ExchangeTests().statuses(server, "batch", ["7-1", "8-1"]) != ["available", "available"] { usleep(100_000) }
        #expect(try ExchangeTests().statuses(server, "batch", ["7-1", "8-1"]) == ["available", "available"])
        #expect(Date() >= release, "not before the announced time")
        // After the time, a refund goes back on sale at once.
        #expect(try c.request("POST", "/v1/orders/B-1/refund", json: #"{"seats":["7-2"],"reason":"late"}"#, headers: Self.li).status == 200)
        #expect(try ExchangeTests().statuses(server, "batch", ["7-2"]) == ["available"])
    }

    @Test(arguments: StoreBackend.available) func badRefundTermsAreRefusedWithTheMemberThatIsWrong(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        let cases: [(String, String)] = [
            (#"{"refundTiers":[{"until":60,"fee":"120%"}]}"#, "details.afterSale.refundTiers[0].fee"),
            (#"{"refundTiers":[{"until":60,"fee":"ten"}]}"#, "details.afterSale.refundTiers[0].fee"),
            (#"{"refundTiers":[{"until":-1,"fee":"5%"}]}"#, "details.afterSale.refundTiers[0].until"),
            (#"{"refundTiers":[{"until":60,"fee":"5%"},{"until":60,"fee":"9%"}]}"#, "details.afterSale.refundTiers[1].until"),
            (#"{"refundTiers":[{"until":60,"fee":"5%","extra":1}]}"#, "details.afterSale.refundTiers[0].extra"),
            (#"{"refundTiers":[]}"#, "details.afterSale.refundTiers"),
            (#"{"refundTiers":[{"until":60,"fee":"5%"}],"refundMinutes":30}"#, "details.afterSale.refundMinutes"),
            (#"{"oneRefundPerBuyer":"yes"}"#, "details.afterSale.oneRefundPerBuyer"),
            (#"{"refundRelease":"tomorrow"}"#, "details.afterSale.refundRelease"),
        ]
        for (k, (terms, path)) in cases.enumerated() {
            let starts = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))
            let body = #"{"id":"bad\#(k)","venueId":"cinema-hall-3","startsAt":"\#(starts)","details":{"afterSale":\#(terms)}}"#
            let r = try c.request("POST", "/v1/shows", json: body, headers: Self.admin)
            #expect((400...422).contains(r.status) && r.text.contains(path), "\(terms) → \(r.status) \(r.text)")
            #expect(try c.request("GET", "/v1/shows/bad\(k)").status == 404, "nothing made")
        }
    }
}
