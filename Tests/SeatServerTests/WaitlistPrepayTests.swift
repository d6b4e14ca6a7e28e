import Foundation
import LoopbackHTTP
import SeatServerTestSupport
import SeatWire
import Testing

/// A prepaid waitlist (候补 with prepayment, #54 item 5) over real HTTP on both stores, against the
/// WeChat Pay and Alipay sandbox (Tests/Payments/sandbox.py): an entry pays the most its seats can cost
/// when joining and is offered nothing before it is paid; an offer to it is sold at once with that
/// money, the difference back when the seats cost less; all of it back when nothing comes (the buyer
/// leaves, the show begins); an entry that never pays is closed at the provider.
@Suite(.serialized) struct WaitlistPrepayTests {
    static let admin = ExchangeTests.admin
    let waitlist = WaitlistTests()

    func server(_ backend: StoreBackend) throws -> (TestServer, PaymentSandbox, HTTPConnection) {
        let sandbox = try PaymentSandbox()
        let server = try ChinaPaymentTests().server(backend, sandbox)
        return (server, sandbox, try server.connection())
    }

    func sell(_ c: HTTPConnection, _ show: String, _ seats: [String], ref: String) throws {
        let list = seats.map { "\"\($0)\"" }.joined(separator: ",")
        let sale = try c.request(
            "POST", "/v1/shows/\(show)/sales", json: #"{"seats":[\#(list)],"orderRef":"\#(ref)","payment":"cash"}"#, headers: Self.admin)
        #expect(sale.status == 201, "\(sale.text)")
    }

    func refund(_ c: HTTPConnection, _ ref: String, _ seats: [String]) throws {
        let list = seats.map { "\"\($0)\"" }.joined(separator: ",")
        let r = try c.request("POST", "/v1/orders/\(ref)/refund", json: #"{"seats":[\#(list)],"reason":"ill"}"#, headers: Self.admin)
        #expect(r.status == 200, "\(r.text)")
    }

    /// A prepaid join: the entry and its provider's order number (the payment id without `pay_`).
    func join(_ c: HTTPConnection, _ body: String, show: String = "wlp") throws -> (entry: WaitlistResource, token: String, order: String) {
        let made = try waitlist.join(c, body, show: show)
        let payment = try #require(made.prepayment, "\(made)")
        return (made, try #require(made.entry), String(payment.id.dropFirst(4)))
    }

    /// The refunds the provider was asked for of `order`, in fen, once there are `count` (they are sent by
    /// the thread that wrote them, just after), or after 3 s.
    func refunds(_ sandbox: PaymentSandbox, order: String, count: Int = 0) throws -> [String] {
        let start = Date()
        var asked: [String] = []
        repeat {
            asked = try sandbox.ledger().refunds.filter { $0["order"] == order }.map { $0["amount"] ?? "" }
            if asked.count >= count { break }
            usleep(50_000)
        } while Date().timeIntervalSince(start) < 3
        return asked
    }

    @Test(arguments: StoreBackend.available) func aPaidEntryIsSoldItsSeatsAtOnce(backend: StoreBackend) throws {
        let (server, sandbox, c) = try server(backend)
        try ExchangeTests().makeShow(c, "wlp", startsIn: 3 * 24 * 60, details: #"{"waitlist":{"offerMinutes":5,"prepay":true}}"#)
        try sell(c, "wlp", ["7-1", "7-2"], ref: "SOLD-1")

        // A prepaid line takes no entry without its payment: the answer says how much.
        let unpaid = try c.request("POST", "/v1/shows/wlp/waitlist", json: #"{"price":"vip","count":1}"#)
        #expect(unpaid.status == 422 && unpaid.text.contains("prepay") && unpaid.text.contains("70.00"), "\(unpaid.text)")
        let cash = try c.request("POST", "/v1/shows/wlp/waitlist", json: #"{"price":"vip","count":1,"prepay":{"provider":"paypal"}}"#)
        #expect(cash.status == 422 && cash.text.contains("prepay.provider"), "\(cash.text)")

        // Two VIP entries: WeChat Pay's QR code for 70.00 each; in line, not yet paid.
        let first = try join(c, #"{"price":"vip","count":1,"prepay":{"provider":"wechatpay"}}"#)
        let second = try join(c, #"{"price":"vip","count":1,"prepay":{"provider":"alipay","method":"qr"}}"#)
        #expect(first.entry.prepayment?.amount == "70.00" && first.entry.prepayment?.state == "pending", "\(first.entry)")
        #expect(first.entry.prepayment?.codeURL?.hasPrefix("weixin://") == true && second.entry.prepayment?.qrCode != nil, "\(second.entry)")
        #expect(first.entry.position == 1 && second.entry.position == 2)

        // Nobody has paid: a seat freed now is nobody's in line, so it goes on sale.
        try refund(c, "SOLD-1", ["7-1"])
        usleep(700_000)
        #expect(try ExchangeTests().statuses(server, "wlp", ["7-1"]) == ["available"])

        // The second pays first; the first's place is kept (it joined first) but only the paid are offered.
        #expect(try sandbox.pay("alipay", order: second.order).notified == 200)
        let paid = try waitlist.entry(c, second.token)
        #expect(paid.state == "waiting" && paid.prepayment?.state == "succeeded" && paid.position == 2, "\(paid)")
        try refund(c, "SOLD-1", ["7-2"])
        let (bought, delay) = try waitlist.awaitState(c, second.token, "bought")
        print("prepaid waitlist sale (\(backend)): \(Int(delay * 1000)) ms after the refund")
        #expect(bought.state == "bought" && bought.refunded == "0.00", "\(bought)")
        // Read again (a page polling): the money that bought the seats stays spent.
        usleep(300_000)
        #expect(try waitlist.entry(c, second.token).refunded == "0.00")
        #expect(try refunds(sandbox, order: second.order).isEmpty)
        // The buyer reads their order (and its tickets) with the code the entry gives them.
        let order = try #require(bought.order, "\(bought)")
        let read = try c.request("GET", "/v1/orders/\(order.ref)?code=\(order.code)")
        #expect(read.status == 200 && read.text.contains("7-2"), "\(read.text)")
        #expect(try ExchangeTests().statuses(server, "wlp", ["7-2"]) == ["sold"])
        #expect(try waitlist.entry(c, first.token).state == "waiting")

        // An entry for any seat prepays the dearest (a couple seat, 120.00); a standard seat (50.00)
        // freed is sold to it and 70.00 goes back through Alipay.
        let any = try join(c, #"{"count":1,"prepay":{"provider":"alipay"}}"#)
        #expect(any.entry.prepayment?.amount == "120.00", "\(any.entry)")
        #expect(try sandbox.pay("alipay", order: any.order).notified == 200)
        #expect(try sandbox.pay("wechatpay", order: first.order).notified == 204)
        try sell(c, "wlp", ["9-1"], ref: "SOLD-2")
        try refund(c, "SOLD-2", ["9-1"])
        let (cheaper, _) = try waitlist.awaitState(c, any.token, "bought")
        #expect(cheaper.state == "bought" && cheaper.refunded == "70.00", "\(cheaper)")
        #expect(try waitlist.entry(c, any.token).refunded == "70.00")
        #expect(try refunds(sandbox, order: any.order, count: 1) == ["7000"])
        #expect(try waitlist.entry(c, first.token).state == "waiting", "a standard seat is not the VIP entry's")

        // The sales are the buyers' online sales, paid by their prepayments; the day reconciles.
        let report = try PaymentFlowTests().reconciliation(c)
        #expect(report.mismatches.isEmpty, "\(report)")
    }

    @Test(arguments: StoreBackend.available) func nothingComingGivesAllTheMoneyBack(backend: StoreBackend) throws {
        let (server, sandbox, c) = try server(backend)
        try ExchangeTests().makeShow(c, "wlp", startsIn: 60, details: #"{"waitlist":{"offerMinutes":5,"prepay":true}}"#)
        let leaving = try join(c, #"{"price":"vip","count":2,"prepay":{"provider":"wechatpay"}}"#)
        let staying = try join(c, #"{"price":"standard","count":1,"prepay":{"provider":"alipay"}}"#)
        let never = try join(c, #"{"price":"standard","count":1,"prepay":{"provider":"wechatpay"}}"#)
        #expect(try sandbox.pay("wechatpay", order: leaving.order).notified == 204)
        #expect(try sandbox.pay("alipay", order: staying.order).notified == 200)

        // The buyer leaves: all 140.00 back through WeChat Pay at once.
        let left = try c.request("DELETE", "/v1/waitlist/\(leaving.token)")
        let gone = try WaitlistResource(json: left.body)
        #expect(left.status == 200 && gone.state == "cancelled" && gone.refunded == "140.00", "\(left.text)")
        #expect(try refunds(sandbox, order: leaving.order) == ["14000"])
        // Leaving again changes nothing, gives nothing back twice.
        #expect(try c.request("DELETE", "/v1/waitlist/\(leaving.token)").status == 200)
        #expect(try refunds(sandbox, order: leaving.order) == ["14000"])

        // One never paid: leaving closes its payment at WeChat Pay, so nobody can pay it later.
        let closed = try WaitlistResource(json: c.request("DELETE", "/v1/waitlist/\(never.token)").body)
        #expect(closed.state == "cancelled" && closed.prepayment?.state == "canceled", "\(closed)")
        #expect(try sandbox.pay("wechatpay", order: never.order).paid == false)

        // The show begins with nothing freed: the line closes, the money goes back in full.
        server.app.inventory.clockOffset.advance(by: 61 * 60_000)
        let (ended, _) = try waitlist.awaitState(c, staying.token, "cancelled")
        #expect(ended.refunded == "50.00" && ended.outcome?.contains("began") == true, "\(ended)")
        #expect(try refunds(sandbox, order: staying.order, count: 1) == ["5000"])
        let report = try PaymentFlowTests().reconciliation(c)
        #expect(report.mismatches.isEmpty, "\(report)")
    }
}

/// Bad prepayments change nothing: a prepayment a waitlist does not take, a provider the server does
/// not take, an order reference (an entry has none); each a 422 naming what is wrong.
@Suite(.serialized) struct WaitlistPrepayRefusalTests {
    @Test(arguments: StoreBackend.available) func prepaymentsTheShowOrServerDoNotTakeAreRefused(backend: StoreBackend) throws {
        let (server, sandbox, c) = try WaitlistPrepayTests().server(backend)
        try ExchangeTests().makeShow(c, "wln", startsIn: 3 * 24 * 60, details: #"{"waitlist":{"offerMinutes":5}}"#)
        let notTaken = try c.request("POST", "/v1/shows/wln/waitlist", json: #"{"price":"vip","count":1,"prepay":{"provider":"wechatpay"}}"#)
        #expect(notTaken.status == 422 && notTaken.text.contains("takes no prepayment"), "\(notTaken.text)")
        let ref = try c.request(
            "POST", "/v1/shows/wln/waitlist", json: #"{"price":"vip","count":1,"prepay":{"provider":"wechatpay","orderRef":"X-1"}}"#)
        #expect(ref.status == 422 && ref.text.contains("prepay.orderRef"), "\(ref.text)")
        let method = try c.request("POST", "/v1/shows/wln/waitlist", json: #"{"price":"vip","count":1,"prepay":{"provider":"alipay","method":"h5"}}"#)
        #expect(method.status == 422, "\(method.text)")
        #expect(try sandbox.ledger().requests.isEmpty, "no provider was asked")
        _ = server

        // A server that takes no money online: a prepaid waitlist's join says so, stores nothing.
        let plain = try TicketTests().server(backend)
        let p = try plain.connection()
        try ExchangeTests().makeShow(p, "wlp", startsIn: 3 * 24 * 60, details: #"{"waitlist":{"offerMinutes":5,"prepay":true}}"#)
        let none = try p.request("POST", "/v1/shows/wlp/waitlist", json: #"{"price":"vip","count":1,"prepay":{"provider":"wechatpay"}}"#)
        #expect(none.status == 422 && none.string("type") == "/problems/provider-not-configured", "\(none.text)")
        let store = try plain.openStore()
        #expect(try store.waitlists?.waitlistShows() == [], "\(none.text)")
    }
}
