import Foundation
import LoopbackHTTP
import SeatDomain
import SeatJSON
import SeatMap
import SeatSamples
import SeatServerTestSupport
import SeatStorage
import SharedState
import Testing

/// Money across a kill -9 (#52): the real `seatkit serve` in a child process, buyers paying with WeChat
/// Pay and Alipay (the sandbox) while it is killed. Some payments succeed at the provider while their
/// notification finds no server (killed between the provider's success and the sale), some sales are
/// acknowledged while their webhook has not gone out (killed between the sale and the webhook). After a
/// restart with the clock past the payment window, the server asks the provider about every paying hold
/// and its outbox delivers what it owes. The counts that must be 0 are printed.
@Suite(.serialized) struct PaymentCrashTests {
    struct Checkout { var provider: String, order: String, orderRef: String }

    @Test(arguments: StoreBackend.available) func killNineBetweenProviderSaleAndWebhookLosesNothing(backend: StoreBackend) throws {
        guard ServerProcess.binaryIsBuilt() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-paycrash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try backend.freshStore(in: directory)
        let sandbox = try PaymentSandbox()
        let receiver = try WebhookReceiver()
        let port = try Localstripe.freePort()
        let paymentsFile = directory.appendingPathComponent("payments.txt")
        try sandbox.settings(notifyPort: port).write(to: paymentsFile, atomically: true, encoding: .utf8)
        let extra = ["--payments", paymentsFile.path]
        let first = try ServerProcess(store: store, port: port, extra: extra)
        let layout = SampleVenues.imaxHall()
        let setup = try HTTPConnection(port: port)
        #expect(try setup.addShow("s", of: layout, prices: ["standard": "68", "premium": "88"]) == [201, 201])
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let endpoint = try setup.request("POST", "/v1/webhooks", json: #"{"url":"\#(receiver.url("crm"))","events":["order.paid"]}"#, headers: admin)
        #expect(endpoint.status == 201, "\(endpoint.text)")
        try receiver.set("crm", secret: endpoint.string("secret"))

        // Six buyers, each on rows of their own: hold a seat, check out, pay at the provider (which
        // notifies the server). What the server acknowledged, and what the provider took, recorded.
        func delivered() throws -> Set<String> {
            Set(
                try receiver.events("crm").compactMap { event in
                    (try? JSONParser.parse(Array(event.body.utf8)))?.objectValue?["data"]?.objectValue?["orderRef"]?.stringValue
                })
        }
        let acknowledged = Locked([String]())  // order refs whose notification the server answered 2xx: sold
        let unpaid = Locked([Checkout]())  // checkouts made, not yet paid when the server died
        let stop = Locked(false)
        let group = DispatchGroup()
        for worker in 0..<6 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let c = try? HTTPConnection(port: port, timeoutSeconds: 3) else { return }
                var n = 0
                for row in stride(from: worker, to: layout.rows.count, by: 6) {
                    for index in layout.rows[row].seats {
                        if stop.current { return }
                        n += 1
                        let provider = n % 2 == 0 ? "wechatpay" : "alipay", orderRef = "K\(worker)-\(n)"
                        guard let held = try? hold(c, [layout.seatID(index)], show: "s"), held.status == 201, let token = held.string("token"),
                            let made = try? c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"\#(provider)","orderRef":"\#(orderRef)"}"#),
                            made.status == 201, let id = made.json?["payment"]?.objectValue?["id"]?.stringValue
                        else { return }
                        let checkout = Checkout(provider: provider, order: String(id.dropFirst(4)), orderRef: orderRef)
                        // Every third buyer is slow to pay: still paying when the server dies.
                        if n % 3 == 0 { unpaid.withLock { $0.append(checkout) }; continue }
                        guard let paid = try? sandbox.pay(provider, order: checkout.order), paid.paid else { return }
                        if let status = paid.notified, (200..<300).contains(status) { acknowledged.withLock { $0.append(orderRef) } }
                    }
                }
            }
        }
        let loaded = Date().addingTimeInterval(15)
        while acknowledged.current.count < 15 && Date() < loaded { Thread.sleep(forTimeInterval: 0.01) }
        first.kill9()
        stop.withLock { $0 = true }
        group.wait()
        // Sales acknowledged whose order.paid had not gone out when the server died (the outbox is read
        // 2 s behind the log: the last ones always are).
        let owedAtKill = Set(acknowledged.current).subtracting(try delivered()).count
        // The slow buyers pay while the server is down: the provider takes the money, its notification
        // finds nobody (as a provider's first try after a crash does).
        var paidWhileDown = 0
        for checkout in unpaid.current.prefix(8) where try sandbox.pay(checkout.provider, order: checkout.order).paid { paidWhileDown += 1 }
        #expect(acknowledged.current.count >= 10, "the load must have sold before the crash")

        // Back, with the clock past every payment window (15 minutes) but within the grace (10 more):
        // each paying hold is asked about at its provider; paid, sold; unpaid, closed.
        let second = try ServerProcess(store: store, environment: ["SEATKIT_CLOCK_OFFSET_MS": "\(16 * 60_000)"], port: port, extra: extra)
        defer { second.terminate() }
        let stored: SeatStore = backend == .sqlite ? try SQLiteStore(path: String(store.dropFirst("sqlite:".count))) : try PostgresStore(url: store)
        let paidAtProvider = try sandbox.ledger().orders.filter { ["SUCCESS", "TRADE_SUCCESS"].contains($0["state"] ?? "") }.compactMap { $0["out_trade_no"] }
        func paymentsWithoutSaleOrRefund() throws -> [String] {
            try paidAtProvider.filter { number in
                guard let p = try stored.payments?.payment(id: "pay_" + number) else { return true }
                return !(p.state == .succeeded && (p.outcome ?? "").hasPrefix("sold")) && p.state != .refunded && !(p.outcome ?? "").hasPrefix("refunded")
            }
        }
        let restarted = Date(), deadline = restarted.addingTimeInterval(60)
        var missing = try paymentsWithoutSaleOrRefund(), undelivered = Set(acknowledged.current).subtracting(try delivered())
        while (!missing.isEmpty || !undelivered.isEmpty) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.25)
            missing = try paymentsWithoutSaleOrRefund()
            undelivered = Set(acknowledged.current).subtracting(try delivered())
        }
        // Sales without payment: a sold seat whose hold has no succeeded payment.
        let claims = try stored.claims(show: "s").filter { $0.status == .sold }
        var salesWithoutPayment = 0
        for holdID in Set(claims.compactMap(\.holdID)) {
            let payments = try stored.payments?.payments(hold: holdID) ?? []
            if !payments.contains(where: { $0.state == .succeeded }) { salesWithoutPayment += 1 }
        }
        let mismatches = try PaymentFlowTests().reconciliation(try HTTPConnection(port: port)).mismatches
        print(
            "payment kill -9 (\(backend)): \(paidAtProvider.count) paid at the provider (\(paidWhileDown) while the server was down),"
                + " \(acknowledged.current.count) sales acknowledged (\(owedAtKill) of their events not yet delivered);"
                + " \(String(format: "%.1f", Date().timeIntervalSince(restarted))) s after the restart: \(salesWithoutPayment) sales without payment,"
                + " \(missing.count) payments without sale or refund, \(undelivered.count) acknowledged events never delivered")
        #expect(salesWithoutPayment == 0)
        #expect(mismatches.isEmpty, "the payments report: \(mismatches)")
        #expect(missing.isEmpty, "paid, never sold nor refunded: \(missing)")
        #expect(undelivered.isEmpty, "sold, its order.paid never delivered: \(undelivered.sorted())")
        #expect(paidWhileDown > 0, "some payments must have come while the server was down")
        #expect(owedAtKill > 0, "some acknowledged sales' events must have been owed at the kill")
        #expect(claims.count >= acknowledged.current.count + paidWhileDown, "every paid seat sold")
    }
}
