import Foundation
import LoopbackHTTP
import SeatDomain
import SeatServerTestSupport
import SharedState
import Testing

/// Payments under races, on both stores (two instances on PostgreSQL): the same paid notification 20
/// times at once, and a notification racing the hold's expiry. Each prints its counts: sales without a
/// payment, payments without a sale or a refund (both must be 0), and the reconciliation report's
/// mismatches (must be none).
@Suite(.serialized) struct PaymentRaceTests {
    /// Sales without payment, payments without sale or refund, and the report's mismatches, for `holds`.
    func audit(_ c: HTTPConnection, _ store: SeatStore, payments ids: [String]) throws -> (unpaidSales: Int, unsoldPayments: Int, mismatches: [String]) {
        var unpaid = 0, unsold = 0
        for id in ids {
            let p = try #require(try store.payments?.payment(id: id))
            let hold = try store.holdWithSeats(id: p.holdID)?.record
            let sold = hold?.state == .confirmed
            if sold && (p.state != .succeeded || hold?.payment != p.id) { unpaid += 1 }
            if p.state == .succeeded && !sold { unsold += 1 }
        }
        return (unpaid, unsold, try PaymentFlowTests().reconciliation(c).mismatches)
    }

    @Test(arguments: StoreBackend.available) func theSameNotificationTwentyTimesAtOnceSellsOnce(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let a = try ChinaPaymentTests().server(backend, sandbox)
        let b = backend == .postgres ? try a.sibling() : a
        let ca = try a.connection()
        let bought = try ChinaPaymentTests().checkout(ca, ["9-1", "9-2"], #"{"provider":"wechatpay","orderRef":"RACE-20"}"#)
        #expect(try sandbox.pay("wechatpay", order: bought.order, notify: false).paid)
        let n = try sandbox.notification("wechatpay", order: bought.order)
        let statuses = Locked([Int]())
        DispatchQueue.concurrentPerform(iterations: 20) { k in
            let server = k % 2 == 0 ? a : b
            let status = (try? HTTPConnection(port: server.port).request("POST", "/v1/payments/wechatpay/notify", headers: n.headers, body: n.body).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.current.allSatisfy { $0 == 204 }, "\(statuses.current)")
        let store = try a.openStore()
        #expect(try a.availability().counts.sold == 2)
        let log = try store.log(show: "show", after: 0, limit: 1_000).filter { $0.entry.action == "confirm" }
        let (unpaid, unsold, mismatches) = try audit(ca, store, payments: ["pay_" + bought.order])
        print(
            "payments race (\(backend), 20 notifications on \(a === b ? 1 : 2) instances): \(log.count) sale(s), \(unpaid) sales without payment, \(unsold) payments without sale or refund, mismatches \(mismatches)"
        )
        #expect(log.count == 1 && unpaid == 0 && unsold == 0 && mismatches.isEmpty)
    }

    /// The window has passed and the buyer paid at its very end: the hold's expiry (which asks the
    /// provider) and the provider's notification race. Whichever wins, the seats are sold once.
    @Test(arguments: StoreBackend.available) func aNotificationRacingTheExpirySellsOnce(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let a = try ChinaPaymentTests().server(backend, sandbox)
        let ca = try a.connection()
        var ids: [String] = []
        for (k, seats) in [["3-1"], ["3-3"], ["3-5"], ["3-7"], ["3-9"]].enumerated() {
            let bought = try ChinaPaymentTests().checkout(ca, seats, #"{"provider":"alipay","orderRef":"RACE-X\#(k)"}"#)
            #expect(try sandbox.pay("alipay", order: bought.order, notify: false).paid)
            ids.append("pay_" + bought.order)
        }
        a.app.inventory.clockOffset.advance(by: 16 * 60_000)
        let notifications = try ids.map { try sandbox.notification("alipay", order: String($0.dropFirst(4))) }
        let answers = Locked([String]())
        DispatchQueue.concurrentPerform(iterations: notifications.count + 1) { k in
            if k == notifications.count {
                a.app.inventory.expireDue()
                return
            }
            let n = notifications[k]
            let text = (try? HTTPConnection(port: a.port).request("POST", "/v1/payments/alipay/notify", headers: n.headers, body: n.body).text) ?? "none"
            answers.withLock { $0.append(text) }
        }
        #expect(answers.current.allSatisfy { $0 == "success" }, "\(answers.current)")
        let store = try a.openStore()
        #expect(try a.availability().counts.sold == 5 && a.availability().counts.held == 0)
        let (unpaid, unsold, mismatches) = try audit(ca, store, payments: ids)
        let sales = try store.log(show: "show", after: 0, limit: 1_000).filter { $0.entry.action == "confirm" }.count
        print(
            "payments race (\(backend), 5 notifications against the expiry): \(sales) sale(s), \(unpaid) sales without payment, \(unsold) payments without sale or refund, mismatches \(mismatches)"
        )
        #expect(sales == 5 && unpaid == 0 && unsold == 0 && mismatches.isEmpty)
    }
}
