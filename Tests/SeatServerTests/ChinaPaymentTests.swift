import Foundation
import LoopbackHTTP
import SeatDomain
import SeatPayments
import SeatSecrets
import SeatServerTestSupport
import Testing

/// WeChat Pay (API v3) and Alipay, against the local sandbox (Tests/Payments/sandbox.py) whose signatures,
/// certificates and encryption are the providers' own SDKs' (`wechatpayv3`, `python-alipay-sdk`): it
/// refuses any call SeatKit signed otherwise than the SDK would, and SeatKit must accept what the SDK
/// signs and refuse what it does not. Both stores.
@Suite(.serialized) struct ChinaPaymentTests {
    func server(_ backend: StoreBackend, _ sandbox: PaymentSandbox) throws -> TestServer {
        let port = try Localstripe.freePort()
        let payments = try PaymentSettings(file: sandbox.settings(notifyPort: port), path: "payments.txt")
        return try TestServer(backend: backend) {
            $0.port = port
            $0.payments = payments
        }
    }

    /// A checkout of `seats` with `provider`: the hold's token, the payment resource and its merchant
    /// order number (the payment id without `pay_`).
    func checkout(_ c: HTTPConnection, _ seats: [String], _ body: String) throws -> (token: String, payment: [String: String], order: String) {
        let token = try #require(try SeatServerTestSupport.hold(c, seats).string("token"))
        let answer = try c.request("POST", "/v1/holds/\(token)/checkout", json: body)
        #expect(answer.status == 201, "\(answer.text)")
        let o = try #require(answer.json?["payment"]?.objectValue)
        var payment: [String: String] = [:]
        for (k, v) in zip(o.keys, o.values) { payment[k] = v.stringValue }
        let id = try #require(payment["id"])
        return (token, payment, String(id.dropFirst(4)))
    }

    @Test(arguments: StoreBackend.available) func aBuyerPaysWithWeChatPayThenOwnsTheSeats(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let server = try server(backend, sandbox)
        let c = try server.connection()
        let bought = try checkout(c, ["7-1", "7-2"], #"{"provider":"wechatpay","orderRef":"WX-PAID-1"}"#)
        // Native: a weixin:// link for the QR code; the sandbox took SeatKit's signed call.
        #expect(bought.payment["codeUrl"]?.hasPrefix("weixin://wxpay/bizpayurl?pr=") == true, "\(bought.payment)")
        #expect(bought.payment["amount"] == "116.00" && bought.payment["state"] == "pending")
        // A retried checkout (the buyer's page reloaded), even naming another reference: the same payment,
        // the same QR code, the same order.
        let retried = try c.request("POST", "/v1/holds/\(bought.token)/checkout", json: #"{"provider":"wechatpay","orderRef":"WX-OTHER"}"#)
        let samePayment = retried.json?["payment"]?.objectValue
        #expect(retried.status == 200 && samePayment?["id"]?.stringValue == bought.payment["id"], "\(retried.text)")
        #expect(samePayment?["codeUrl"]?.stringValue == bought.payment["codeUrl"] && samePayment?["orderRef"]?.stringValue == "WX-PAID-1", "\(retried.text)")
        #expect(try sandbox.ledger().requests == ["wechatpay native \(bought.order)", "wechatpay native \(bought.order)"])
        // Nobody may change a hold being paid for.
        let changed = try c.request("POST", "/v1/holds/\(bought.token)/seats", json: #"{"add":["7-3"]}"#)
        #expect(changed.status == 409 && changed.string("type") == "/problems/hold-paying", "\(changed.text)")

        // The buyer scans and pays; WeChat Pay's signed, encrypted notification sells the seats.
        let paid = try sandbox.pay("wechatpay", order: bought.order)
        #expect(paid.paid && paid.notified == 204)
        #expect(try c.request("GET", "/v1/holds/\(bought.token)").string("type") == "/problems/hold-confirmed")
        let store = try server.openStore()
        let recorded = try #require(try store.payments?.payment(id: "pay_" + bought.order))
        #expect(recorded.state == .succeeded && recorded.providerID?.hasPrefix("4200") == true && recorded.amount == 11600, "\(recorded)")
        // The same notification again, as WeChat Pay repeats them: received, nothing more.
        let again = try sandbox.notification("wechatpay", order: bought.order)
        let repeated = try c.request("POST", "/v1/payments/wechatpay/notify", headers: again.headers, body: again.body)
        #expect(repeated.status == 204, "\(repeated.text)")
        #expect(try server.availability().counts.sold == 2)
        let report = try PaymentFlowTests().reconciliation(c)
        #expect(report.payments == ["pay_\(bought.order) wechatpay succeeded 116.00 WX-PAID-1"] && report.mismatches.isEmpty, "\(report)")

        // JSAPI (inside WeChat): the signed parameters the page pays with, verifiable with the merchant key.
        let jsapi = try c.request(
            "POST", "/v1/holds/\(try #require(try SeatServerTestSupport.hold(c, ["8-1"]).string("token")))/checkout",
            json: #"{"provider":"wechatpay","method":"jsapi","payer":"oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"}"#)
        let parameters = try #require(jsapi.json?["payment"]?.objectValue?["jsapi"]?.objectValue, "\(jsapi.text)")
        let field = { (name: String) in parameters[name]?.stringValue ?? "" }
        #expect(field("package").hasPrefix("prepay_id=wx") && field("signType") == "RSA" && field("appId") == PaymentSandbox.appid)
        let signed = Array("\(field("appId"))\n\(field("timeStamp"))\n\(field("nonceStr"))\n\(field("package"))\n".utf8)
        let certificate = try String(contentsOf: PaymentSandbox.folder.appendingPathComponent("keys/merchant-cert.pem"), encoding: .utf8)
        #expect(RSASHA256.verify(Array(Data(base64Encoded: field("paySign")) ?? Data()), of: signed, publicKeyPEM: certificate))
    }

    @Test(arguments: StoreBackend.available) func aBuyerPaysWithAlipayThenOwnsTheSeats(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let server = try server(backend, sandbox)
        let c = try server.connection()
        let bought = try checkout(c, ["6-1"], #"{"provider":"alipay","orderRef":"ALI-PAID-1"}"#)
        #expect(bought.payment["qrCode"]?.hasPrefix("https://qr.alipay.com/") == true, "\(bought.payment)")
        let paid = try sandbox.pay("alipay", order: bought.order)
        #expect(paid.paid && paid.notified == 200)
        let store = try server.openStore()
        let recorded = try #require(try store.payments?.payment(id: "pay_" + bought.order))
        #expect(recorded.state == .succeeded && recorded.outcome == "sold" && recorded.amount == 5800, "\(recorded)")
        // Alipay reads the text "success" (or sends it again for a day): a repeat is received, once sold.
        let again = try sandbox.notification("alipay", order: bought.order)
        let repeated = try c.request("POST", "/v1/payments/alipay/notify", headers: again.headers, body: again.body)
        #expect(repeated.status == 200 && repeated.text == "success", "\(repeated.text)")
        #expect(try server.availability().counts.sold == 1)

        // Page pay (a desktop browser): a signed link to the gateway, which the sandbox's SDK accepts.
        let page = try checkout(c, ["6-3"], #"{"provider":"alipay","method":"page"}"#)
        let link = try #require(page.payment["redirectUrl"].flatMap(URL.init(string:)), "\(page.payment)")
        #expect(link.path == "/gateway.do" && link.query?.contains("method=alipay.trade.page.pay") == true)
        let opened = try HTTPConnection(port: sandbox.port).request("GET", link.path + "?" + (link.query ?? ""))
        #expect(opened.status == 200, "\(opened.text)")
        #expect(try sandbox.pay("alipay", order: page.order).notified == 200)
        #expect(try server.availability().counts.sold == 2)
        #expect(try PaymentFlowTests().reconciliation(c).mismatches.isEmpty)
    }

    /// A phone's browser: WeChat Pay H5 and Alipay wap send the buyer to the provider's page and back to
    /// the show's page (the origin of notifyUrl); the local sandbox is test money, its cashier named in
    /// the payment, and its Pay button (the buyer's tap) sells the seats.
    @Test(arguments: StoreBackend.available) func aPhoneBuyerPaysOnTheProvidersPageAndComesBack(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let server = try server(backend, sandbox)
        let c = try server.connection()
        let options = try c.request("GET", "/v1/payments")
        #expect(
            options.text == #"{"providers":[{"provider":"wechatpay","methods":["native","h5","jsapi"],"testMoney":true},"#
                + #"{"provider":"alipay","methods":["qr","page","wap"],"testMoney":true}],"paymentMinutes":15}"#, "\(options.text)")
        let back = "http://127.0.0.1:\(server.port)/shows/show"
        for (provider, method, seat) in [("wechatpay", "h5", "9-1"), ("alipay", "wap", "9-3")] {
            let bought = try checkout(c, [seat], #"{"provider":"\#(provider)","method":"\#(method)"}"#)
            let link = try #require(bought.payment["redirectUrl"].flatMap(URLComponents.init(string:)), "\(bought.payment)")
            let query = Dictionary((link.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
            // WeChat Pay takes the way back as redirect_url; Alipay as return_url (and quit_url), signed.
            #expect(query[provider == "wechatpay" ? "redirect_url" : "return_url"] == back, "\(link)")
            #expect(provider == "wechatpay" ? query["order"] == bought.order : query["method"] == "alipay.trade.wap.pay", "\(link)")
            #expect(bought.payment["testPayUrl"] == "http://127.0.0.1:\(sandbox.port)/_sandbox/cashier?provider=\(provider)&order=\(bought.order)")
            let shop = try HTTPConnection(port: sandbox.port)
            let page = try shop.request("GET", link.path + "?" + (link.percentEncodedQuery ?? ""))
            #expect(page.status == 200 && page.text.contains("测试付款") && page.text.contains("sandbox-pay"), "\(page.text)")
            #expect(try server.availability().counts.sold == (provider == "wechatpay" ? 0 : 1))
            let form = "provider=\(provider)&order=\(bought.order)&back=" + back.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let paid = try shop.request(
                "POST", "/_sandbox/cashier", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(form.utf8))
            #expect(paid.status == 303 && paid.headers["location"] == back, "\(paid.status) \(paid.headers)")
            #expect(try c.request("GET", "/v1/holds/\(bought.token)").string("type") == "/problems/hold-confirmed")
        }
        #expect(try server.availability().counts.sold == 2)
        #expect(try sandbox.ledger().requests.filter { $0.hasPrefix("wechatpay h5") || $0.hasPrefix("alipay alipay.trade.wap.pay") }.count == 2)
        #expect(try PaymentFlowTests().reconciliation(c).mismatches.isEmpty)

        // The page's QR codes: a provider's payment link drawn, anything else refused.
        let qr = try c.request("GET", "/v1/payments/qr.svg?text=weixin%3A%2F%2Fwxpay%2Fbizpayurl%3Fpr%3Dabc1234")
        #expect(qr.status == 200 && qr.headers["content-type"] == "image/svg+xml" && qr.text.hasPrefix("<svg"), "\(qr.text)")
        let other = try c.request("GET", "/v1/payments/qr.svg?text=https%3A%2F%2Fevil.example%2F")
        #expect(other.status == 422 && other.text.contains("text"), "\(other.text)")
    }

    /// Forged, stale, for another merchant, another amount, an unknown payment, a resource sealed with
    /// another key: each refused (400, problem+json), counted by reason, nothing changed; the genuine
    /// notification still sells.
    @Test(arguments: StoreBackend.available) func aNotificationThatIsNotTheProvidersChangesNothing(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let server = try server(backend, sandbox)
        let c = try server.connection()
        let wx = try checkout(c, ["5-1"], #"{"provider":"wechatpay"}"#), ali = try checkout(c, ["5-3"], #"{"provider":"alipay"}"#)
        #expect(try sandbox.pay("wechatpay", order: wx.order, notify: false).paid)
        #expect(try sandbox.pay("alipay", order: ali.order, notify: false).paid)
        let cases: [(String, String, String, String)] = [
            ("wechatpay", wx.order, #""forge":true"#, "forged"),
            ("wechatpay", wx.order, #""timestampOffset":-600"#, "stale"),
            ("wechatpay", wx.order, #""serial":"1234ABCD""#, "forged"),
            ("wechatpay", wx.order, #""apiV3Key":"AnotherMerchantsApiV3Key01234567""#, "forged"),
            ("wechatpay", wx.order, #""mchid":"1900000109""#, "merchant"),
            ("wechatpay", wx.order, #""amount":1"#, "mismatch"),
            ("alipay", ali.order, #""forge":true"#, "forged"),
            ("alipay", ali.order, #""app_id":"2021000000000001""#, "merchant"),
            ("alipay", ali.order, #""total_amount":"0.01""#, "mismatch"),
            ("wechatpay", wx.order, #""out_trade_no":"00000000000000000000000000000000""#, "unknown"),
            ("alipay", ali.order, #""out_trade_no":"00000000000000000000000000000000""#, "unknown"),
        ]
        for (provider, order, overrides, reason) in cases {
            let n = try sandbox.notification(provider, order: order, overrides: overrides)
            let answer = try c.request("POST", "/v1/payments/\(provider)/notify", headers: n.headers, body: n.body)
            #expect(answer.status == 400 && answer.headers["content-type"] == "application/problem+json", "\(overrides): \(answer.text)")
            let type = [
                "forged": "bad-signature", "stale": "bad-signature", "merchant": "payment-mismatch", "mismatch": "payment-mismatch",
                "unknown": "unknown-payment",
            ][reason]
            #expect(answer.string("type") == "/problems/" + (type ?? ""), "\(overrides): \(answer.text)")
        }
        // Unsigned; and a genuine one changed on the way (another order number): its signature fails.
        let genuine = try sandbox.notification("wechatpay", order: wx.order)
        let unsigned = try c.request("POST", "/v1/payments/wechatpay/notify", headers: [("Content-Type", "application/json")], body: genuine.body)
        #expect(unsigned.status == 400)
        let tampered = String(decoding: try sandbox.notification("alipay", order: ali.order).body, as: UTF8.self)
            .replacingOccurrences(of: "out_trade_no=\(ali.order)", with: "out_trade_no=0000\(ali.order.dropFirst(4))")
        #expect(try c.request("POST", "/v1/payments/alipay/notify", headers: genuine.headers, body: Array(tampered.utf8)).status == 400)
        let refused = try PaymentFlowTests().refused(c)
        #expect(refused == ["forged": 5, "stale": 1, "merchant": 2, "mismatch": 2, "unsigned": 1, "unknown": 2, "unreadable": 0], "\(refused)")
        #expect(try server.availability().counts.sold == 0 && server.availability().counts.held == 2)

        let sold = try c.request("POST", "/v1/payments/wechatpay/notify", headers: genuine.headers, body: genuine.body)
        #expect(sold.status == 204, "\(sold.text)")
        let aliGenuine = try sandbox.notification("alipay", order: ali.order)
        #expect(try c.request("POST", "/v1/payments/alipay/notify", headers: aliGenuine.headers, body: aliGenuine.body).text == "success")
        #expect(try server.availability().counts.sold == 2)
    }

    /// No notification comes: before the paying holds may end the providers are asked (WeChat Pay's
    /// order query, Alipay's trade query). Unpaid, the order is closed there and the hold expires;
    /// paid, the seats are sold.
    @Test(arguments: StoreBackend.available) func aPayingHoldAsksWeChatPayAndAlipayBeforeItExpires(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let server = try server(backend, sandbox)
        let c = try server.connection()
        let wxUnpaid = try checkout(c, ["4-1"], #"{"provider":"wechatpay"}"#), wxPaid = try checkout(c, ["4-3"], #"{"provider":"wechatpay"}"#)
        let aliUnpaid = try checkout(c, ["4-5"], #"{"provider":"alipay"}"#), aliPaid = try checkout(c, ["4-7"], #"{"provider":"alipay"}"#)
        #expect(try sandbox.pay("wechatpay", order: wxPaid.order, notify: false).paid)
        #expect(try sandbox.pay("alipay", order: aliPaid.order, notify: false).paid)
        server.app.inventory.clockOffset.advance(by: 16 * 60_000)
        // The server's own expiry thread (every half second) may settle some of them first (CI stop 65:
        // 2 of 4 here): every one is settled, by either, before the providers' ledgers are read.
        var settled = server.app.inventory.expireDue()
        for _ in 0..<100 where try server.availability().counts.held > 0 {
            Thread.sleep(forTimeInterval: 0.05)
            settled += server.app.inventory.expireDue()
        }
        #expect(try server.availability().counts.held == 0, "every paying hold settled (\(settled) by this call)")
        let orders = Dictionary(uniqueKeysWithValues: try sandbox.ledger().orders.map { ($0["out_trade_no"] ?? "", $0["state"] ?? "") })
        #expect(orders[wxUnpaid.order] == "CLOSED" && orders[aliUnpaid.order] == "TRADE_CLOSED", "\(orders)")
        let store = try server.openStore()
        for unpaid in [wxUnpaid, aliUnpaid] {
            #expect(try c.request("GET", "/v1/holds/\(unpaid.token)").status == 410)
            #expect(try store.payments?.payment(id: "pay_" + unpaid.order)?.state == .canceled)
        }
        for paid in [wxPaid, aliPaid] {
            #expect(try c.request("GET", "/v1/holds/\(paid.token)").string("type") == "/problems/hold-confirmed")
            #expect(try store.payments?.payment(id: "pay_" + paid.order)?.state == .succeeded)
        }
        #expect(try server.availability().counts.sold == 2 && server.availability().counts.held == 0)
        #expect(try PaymentFlowTests().reconciliation(c).mismatches.isEmpty)
    }
}

/// A provider down for 60 s (its API drops every connection): checkouts are refused as unavailable and
/// change nothing, refunds wait pending, paying holds wait instead of expiring; once it is back, each is
/// settled: the paid sold, the unpaid closed, the refunds sent. Both stores; the server's clock moved.
@Suite(.serialized) struct ProviderOutageTests {
    @Test(arguments: StoreBackend.available) func aProviderDownForAMinuteLosesNoMoney(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let server = try ChinaPaymentTests().server(backend, sandbox)
        let c = try server.connection()
        let china = ChinaPaymentTests()
        let sold = try china.checkout(c, ["3-1"], #"{"provider":"wechatpay","orderRef":"DOWN-SOLD"}"#)
        #expect(try sandbox.pay("wechatpay", order: sold.order).notified == 204)
        let paidQuietly = try china.checkout(c, ["3-3"], #"{"provider":"alipay"}"#)
        #expect(try sandbox.pay("alipay", order: paidQuietly.order, notify: false).paid)  // its notification lost
        let unpaid = try china.checkout(c, ["3-5"], #"{"provider":"wechatpay"}"#)

        try sandbox.outage(true)
        // A new checkout: 503, the hold still the buyer's to pay later (or change).
        let later = try #require(try SeatServerTestSupport.hold(c, ["3-7"]).string("token"))
        let refused = try c.request("POST", "/v1/holds/\(later)/checkout", json: #"{"provider":"alipay"}"#)
        #expect(refused.status == 503 && refused.string("type") == "/problems/provider-unavailable", "\(refused.text)")
        #expect(try c.request("GET", "/v1/holds/\(later)").string("state") == "active")
        // The box office refunds the sold seat: done at once, its money pending until WeChat Pay answers.
        let refund = try c.request(
            "POST", "/v1/orders/DOWN-SOLD/refund", json: #"{"reason":"show moved"}"#, headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(refund.status == 200 && refund.json?["moneyBack"]?.arrayValue?.first?.objectValue?["state"]?.stringValue == "pending", "\(refund.text)")
        // A minute of the server's time down, past the payment window: the paying holds wait, unsettled,
        // and say so to their buyers (a read once ended them before their provider was asked).
        let inventory = server.app.inventory
        inventory.clockOffset.advance(by: 15 * 60_000)
        for _ in 0..<6 {
            inventory.clockOffset.advance(by: 10_000)
            inventory.expireDue()
            server.app.api.settleMoney()
        }
        for waiting in [paidQuietly, unpaid] {
            let now = try c.request("GET", "/v1/holds/\(waiting.token)")
            #expect(now.string("state") == "paying", "\(now.text)")
        }
        #expect(try server.availability().counts.sold == 0)

        try sandbox.outage(false)
        inventory.clockOffset.advance(by: 31_000)
        inventory.expireDue()
        server.app.api.settleMoney()
        // Back: the quiet payment sold, the unpaid one closed, the refund sent, the new checkout taken.
        #expect(try c.request("GET", "/v1/holds/\(paidQuietly.token)").string("type") == "/problems/hold-confirmed")
        #expect(try c.request("GET", "/v1/holds/\(unpaid.token)").status == 410)
        let orders = Dictionary(uniqueKeysWithValues: try sandbox.ledger().orders.map { ($0["out_trade_no"] ?? "", $0["state"] ?? "") })
        #expect(orders[unpaid.order] == "CLOSED" && orders[sold.order] == "REFUND", "\(orders)")
        let order = try c.request("GET", "/v1/orders/DOWN-SOLD", headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(order.json?["moneyBack"]?.arrayValue?.first?.objectValue?["state"]?.stringValue == "succeeded", "\(order.text)")
        let again = try #require(try SeatServerTestSupport.hold(c, ["3-9"]).string("token"))
        #expect(try c.request("POST", "/v1/holds/\(again)/checkout", json: #"{"provider":"alipay"}"#).status == 201)
        let report = try PaymentFlowTests().reconciliation(c)
        let store = try server.openStore()
        let paidAtProvider = try sandbox.ledger().orders.filter { ["SUCCESS", "TRADE_SUCCESS", "REFUND"].contains($0["state"] ?? "") }
        var withoutSaleOrRefund = 0
        for o in paidAtProvider {
            let p = try store.payments?.payment(id: "pay_" + (o["out_trade_no"] ?? ""))
            let sold = p?.state == .succeeded && (p?.outcome ?? "").hasPrefix("sold")
            let refunded = try !(store.payments?.paymentRefunds(payment: p?.id ?? "") ?? []).filter { $0.state == .succeeded }.isEmpty
            if !sold && !refunded && p?.state != .refunded { withoutSaleOrRefund += 1 }
        }
        print(
            "provider down 60 s (\(backend)): \(paidAtProvider.count) paid at the provider; after: \(withoutSaleOrRefund) payments without sale or refund,"
                + " \(report.mismatches.count) mismatches")
        #expect(withoutSaleOrRefund == 0 && report.mismatches.isEmpty, "\(report)")
    }
}

/// Money back the way it came: a refund of seats paid online is a refund through the provider that took
/// the payment, for those seats' prices (partial where asked), pending until the provider takes it and
/// failed with its reason when it will not; one the provider could not be asked about is sent again.
@Suite(.serialized) struct RefundThroughProviderTests {
    func refund(_ c: HTTPConnection, _ order: String, _ body: String) throws -> HTTPConnection.Response {
        try c.request("POST", "/v1/orders/\(order)/refund", json: body, headers: [("X-Admin-Key", TestServer.adminKey)])
    }

    func moneyBack(_ answer: HTTPConnection.Response) -> [String] {
        (answer.json?["moneyBack"]?.arrayValue ?? []).compactMap(\.objectValue).map { b in
            ["provider", "amount", "state"].compactMap { b[$0]?.stringValue }.joined(separator: " ")
        }
    }

    /// A buyer's refund of a show with fees by time (`refundTiers`): the provider gives back the price
    /// less the fee, and the fee stays with the show.
    @Test(arguments: StoreBackend.available) func aBuyersRefundFeeIsKeptAndTheRestGoesBack(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let server = try ChinaPaymentTests().server(backend, sandbox)
        let c = try server.connection()
        let terms = #"{"details":{"afterSale":{"refundTiers":[{"until":1440,"fee":"20%"}]}}}"#
        #expect(try c.request("PATCH", "/v1/shows/show", json: terms, headers: [("X-Admin-Key", TestServer.adminKey)]).status == 200)
        let ali = try ChinaPaymentTests().checkout(c, ["7-1", "7-2"], #"{"provider":"alipay","orderRef":"ALI-FEE"}"#)
        #expect(try sandbox.pay("alipay", order: ali.order).notified == 200)
        let quote = try c.request("GET", "/v1/orders/ALI-FEE?code=\(ali.token)").json?["afterSale"]?.arrayValue?.first?.objectValue
        let seat = quote?["refundSeats"]?.arrayValue?.first?.objectValue
        #expect(
            seat?["price"]?.stringValue == "58.00" && seat?["fee"]?.stringValue == "11.60" && seat?["back"]?.stringValue == "46.40",
            "\(String(describing: quote))")
        let refund = try c.request("POST", "/v1/orders/ALI-FEE/refund", json: #"{"seats":["7-1"],"code":"\#(ali.token)"}"#)
        #expect(refund.status == 200 && moneyBack(refund) == ["alipay 46.40 succeeded"], "\(refund.text)")
        let asked = try sandbox.ledger().refunds
        #expect(asked.map { $0["amount"] ?? "" } == ["4640"], "the provider was asked for the price less the fee, in fen: \(asked)")
    }

    @Test(arguments: StoreBackend.available) func aRefundGoesBackThroughWeChatPayAndAlipay(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let server = try ChinaPaymentTests().server(backend, sandbox)
        let c = try server.connection()
        let wx = try ChinaPaymentTests().checkout(c, ["7-1", "7-2"], #"{"provider":"wechatpay","orderRef":"WX-BACK"}"#)
        let ali = try ChinaPaymentTests().checkout(c, ["5-1"], #"{"provider":"alipay","orderRef":"ALI-BACK"}"#)
        #expect(try sandbox.pay("wechatpay", order: wx.order).notified == 204)
        #expect(try sandbox.pay("alipay", order: ali.order).notified == 200)

        // One seat of two: 58.00 of the 116.00 goes back through WeChat Pay, taken at once.
        let one = try refund(c, "WX-BACK", #"{"seats":["7-1"],"reason":"the buyer cannot come"}"#)
        #expect(one.status == 200 && moneyBack(one) == ["wechatpay 58.00 succeeded"], "\(one.text)")
        // The provider down (503): the refund is recorded pending, the seat is back on sale at once.
        try sandbox.failRefunds(503)
        let two = try refund(c, "WX-BACK", #"{"seats":["7-2"],"reason":"the buyer cannot come"}"#)
        #expect(two.status == 200 && moneyBack(two) == ["wechatpay 58.00 succeeded", "wechatpay 58.00 pending"], "\(two.text)")
        #expect(try server.availability().counts.sold == 1)
        // Back up: the next round sends it (the same refund: its id is WeChat Pay's out_refund_no).
        try sandbox.failRefunds(0)
        server.app.inventory.clockOffset.advance(by: 60_000)
        server.app.api.settleMoney()
        let order = try c.request("GET", "/v1/orders/WX-BACK", headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(moneyBack(order) == ["wechatpay 58.00 succeeded", "wechatpay 58.00 succeeded"], "\(order.text)")
        // The box office sees the payment that sold it, with WeChat Pay's own transaction id; the buyer does not.
        let paid = try #require(order.json?["payments"]?.arrayValue?.first?.objectValue, "\(order.text)")
        #expect(paid["provider"]?.stringValue == "wechatpay" && paid["providerId"]?.stringValue?.hasPrefix("4200") == true, "\(paid)")
        #expect(paid["amount"]?.stringValue == "116.00" && paid["id"]?.stringValue == "pay_" + wx.order, "\(paid)")
        let buyers = try c.request("GET", "/v1/orders/WX-BACK?code=\(wx.token)")
        #expect(buyers.status == 200 && buyers.json?["payments"] == nil, "\(buyers.text)")
        let refunds = try sandbox.ledger().refunds
        #expect(refunds.map { $0["amount"] ?? "" } == ["5800", "5800"] && Set(refunds.map { $0["order"] ?? "" }) == [wx.order], "\(refunds)")

        // Alipay refuses (the seller's balance): failed, with Alipay's reason, for the box office to see.
        try sandbox.failRefunds(400)
        let refused = try refund(c, "ALI-BACK", #"{"reason":"show moved"}"#)
        let back = try #require(refused.json?["moneyBack"]?.arrayValue?.first?.objectValue, "\(refused.text)")
        #expect(back["state"]?.stringValue == "failed" && back["outcome"]?.stringValue?.contains("ACQ.SELLER_BALANCE_NOT_ENOUGH") == true, "\(back)")
        #expect(try server.availability().counts.sold == 0)
        // The reconciliation report lists the three refunds and names the refused one: money still owed.
        let report = try PaymentFlowTests().reconciliation(c)
        #expect(report.mismatches == ["refund-failed"], "\(report)")
    }

    @Test(arguments: StoreBackend.available) func aRefundGoesBackThroughStripe(backend: StoreBackend) throws {
        let stripe = try Localstripe()
        let server = try PaymentFlowTests().server(backend, stripe)
        let c = try server.connection()
        let token = try #require(try SeatServerTestSupport.hold(c, ["6-1", "6-2"]).string("token"))
        let checkout = try c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"stripe","orderRef":"CARD-BACK"}"#)
        let paymentID = try #require(checkout.json?["payment"]?.objectValue?["id"]?.stringValue)
        let store = try server.openStore()
        let intent = try #require(try store.payments?.payment(id: paymentID)?.providerID)
        #expect(try stripe.pay(intent: intent) == "succeeded")
        _ = try PaymentFlowTests().eventually(store, paymentID) { $0.state == .succeeded }
        let answer = try refund(c, "CARD-BACK", #"{"seats":["6-2"],"reason":"a seat too many"}"#)
        #expect(answer.status == 200 && moneyBack(answer) == ["stripe 58.00 succeeded"], "\(answer.text)")
        #expect(try PaymentFlowTests().refunds(stripe, intent) == [5800])
        // The whole order again names only the seat left: never more back than was paid.
        let rest = try refund(c, "CARD-BACK", #"{"reason":"the rest"}"#)
        #expect(moneyBack(rest) == ["stripe 58.00 succeeded", "stripe 58.00 succeeded"], "\(rest.text)")
        #expect(try PaymentFlowTests().refunds(stripe, intent).sorted() == [5800, 5800])
    }
}

extension RefundThroughProviderTests {
    /// A buyer who paid with WeChat Pay moves to cheaper seats: the difference (less the exchange fee)
    /// goes back through WeChat Pay with the exchange. To dearer seats: 402, nothing changed (the
    /// difference is the box office's to take; never seats sold without their money).
    @Test(arguments: StoreBackend.available) func anExchangesDifferenceGoesBackThroughTheProvider(backend: StoreBackend) throws {
        let sandbox = try PaymentSandbox()
        let server = try ChinaPaymentTests().server(backend, sandbox)
        let c = try server.connection()
        let terms = #"{"afterSale":{"exchanges":2,"exchangeFee":"5"}}"#
        try ExchangeTests().makeShow(c, "sat", startsIn: 3 * 24 * 60, standard: "60", details: terms)
        try ExchangeTests().makeShow(c, "sun", startsIn: 4 * 24 * 60, standard: "45", details: terms)
        let token = try #require(try SeatServerTestSupport.hold(c, ["5-3", "5-4"], show: "sat").string("token"))
        let checkout = try c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"wechatpay","orderRef":"WX-MOVE"}"#)
        let order = String(try #require(checkout.json?["payment"]?.objectValue?["id"]?.stringValue).dropFirst(4))
        #expect(try sandbox.pay("wechatpay", order: order).notified == 204)

        let cheaper = try c.request("POST", "/v1/orders/WX-MOVE/exchange", json: #"{"to":{"show":"sun","seats":["5-3","5-4"]},"code":"\#(token)"}"#)
        #expect(cheaper.status == 200 && cheaper.string("difference") == "-20.00", "\(cheaper.text)")
        let back = try #require(cheaper.json?["order"]?.objectValue?["moneyBack"]?.arrayValue?.first?.objectValue, "\(cheaper.text)")
        #expect(back["amount"]?.stringValue == "20.00" && back["state"]?.stringValue == "succeeded" && back["provider"]?.stringValue == "wechatpay")
        #expect(try sandbox.ledger().refunds.map { $0["amount"] ?? "" } == ["2000"])

        let dearer = try c.request("POST", "/v1/orders/WX-MOVE/exchange", json: #"{"to":{"show":"sat","seats":["6-3","6-4"]},"code":"\#(token)"}"#)
        #expect(dearer.status == 402 && dearer.string("type") == "/problems/payment-required", "\(dearer.text)")
        let now = try c.request("GET", "/v1/orders/WX-MOVE", headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(now.text.contains(#""showId":"sun""#) && !now.text.contains(#""seat":"6-3""#), "\(now.text)")
    }
}
