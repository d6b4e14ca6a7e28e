import Foundation
import SeatJSON
import SeatSecrets

/// Alipay's open API (`gateway=` in the settings; the test provider in tests). Every call is a form of
/// parameters signed RSA2 (SHA256withRSA over the parameters sorted by name, `k=v&…`) with the app's
/// key; every answer and notification is checked against Alipay's public key. A QR payment is made
/// at once (`alipay.trade.precreate`); a page payment is a signed link the buyer is sent to. Amounts are
/// yuan with two decimals; the merchant's order number is SeatKit's payment id without `pay_`; Alipay's
/// `trade_no` is the provider's id once paid.
public struct AlipayClient: PaymentProvider {
    public let settings: AlipaySettings
    let http: ProviderHTTP
    public var name: String { "alipay" }

    public init(settings: AlipaySettings, http: ProviderHTTP = ProviderHTTP()) {
        self.settings = settings
        self.http = http
    }

    public func create(_ request: PaymentRequest) throws -> ProviderCheckout {
        guard request.currency == "CNY" else { throw ProviderError(provider: name, status: 0, message: "Alipay takes CNY, not \(request.currency)") }
        let reference = ProviderReference(paymentID: request.paymentID, providerID: nil, amount: request.amount, currency: request.currency)
        var biz: [(String, String)] = [
            ("out_trade_no", reference.merchantOrderNumber), ("total_amount", Self.yuan(request.amount)), ("subject", String(request.description.prefix(128))),
        ]
        if request.expiresAt > 0 { biz.append(("time_expire", Self.chinaTime(request.expiresAt))) }
        var checkout = ProviderCheckout(providerID: nil, amount: request.amount, currency: "CNY")
        if request.method == "page" || request.method == "wap" {
            // A desktop's cashier page or a phone's (which opens the Alipay app where it is installed).
            let wap = request.method == "wap"
            biz.append(("product_code", wap ? "QUICK_WAP_WAY" : "FAST_INSTANT_TRADE_PAY"))
            if wap, let back = request.returnURL { biz.append(("quit_url", back)) }
            let query = try signed(wap ? "alipay.trade.wap.pay" : "alipay.trade.page.pay", biz: biz, notify: true, returnURL: request.returnURL)
            checkout.redirectURL = settings.gateway.absoluteString + "?" + String(decoding: ProviderHTTP.form(query), as: UTF8.self)
        } else {
            let answer = try call("alipay.trade.precreate", biz: biz, notify: true)
            guard let code = answer["qr_code"]?.stringValue else { throw unreadable("a precreated trade without a qr_code") }
            checkout.qrCode = code
        }
        return checkout
    }

    /// Queries the trade; one still waiting for the buyer is closed, then read again (paid meanwhile
    /// reads as paid). A trade Alipay never made (a page payment nobody opened) was never paid.
    public func settle(_ payment: ProviderReference) throws -> ProviderPayment.Status {
        let first = try query(payment)
        guard first == "WAIT_BUYER_PAY" else { return Self.status(first) }
        do { _ = try call("alipay.trade.close", biz: [("out_trade_no", payment.merchantOrderNumber)], notify: false) } catch is ProviderError {}
        return Self.status(try query(payment))
    }

    func query(_ payment: ProviderReference) throws -> String {
        do {
            let answer = try call("alipay.trade.query", biz: [("out_trade_no", payment.merchantOrderNumber)], notify: false)
            return answer["trade_status"]?.stringValue ?? ""
        } catch let error as ProviderError where error.message.contains("ACQ.TRADE_NOT_EXIST") {
            return "TRADE_NOT_EXIST"
        }
    }

    static func status(_ tradeStatus: String) -> ProviderPayment.Status {
        switch tradeStatus {
        case "TRADE_SUCCESS", "TRADE_FINISHED": .succeeded
        case "TRADE_CLOSED", "TRADE_NOT_EXIST": .canceled
        default: .pending
        }
    }

    public func refund(_ payment: ProviderReference, amount: Int64, key: String, reason: String) throws -> ProviderRefund {
        let answer = try call(
            "alipay.trade.refund",
            biz: [
                ("out_trade_no", payment.merchantOrderNumber), ("refund_amount", Self.yuan(amount)), ("out_request_no", String(key.prefix(64))),
                ("refund_reason", String(reason.prefix(256))),
            ], notify: false)
        // Code 10000 is a refund taken; `fund_change` N on a retry means it was taken before.
        return ProviderRefund(id: answer["trade_no"]?.stringValue.map { "\($0)/\(key.prefix(64))" } ?? String(key.prefix(64)), state: .succeeded)
    }

    /// An asynchronous notification: a form signed RSA2 with Alipay's key, for this app. Alipay sends a
    /// notification again until answered `success` (over about a day), so a replay is expected: it is
    /// the payment's state, not a timestamp, that makes it change nothing twice.
    public func notification(header: (String) -> String?, body: [UInt8], now: Int) throws(NotificationRefusal) -> ProviderNotification {
        guard let fields = ProviderHTTP.formFields(body), !fields.isEmpty else { throw NotificationRefusal("unreadable", "not a form") }
        var values: [String: String] = [:]
        for (k, v) in fields {
            guard values[k] == nil else { throw NotificationRefusal("unreadable", "\(k) is given twice") }
            values[k] = v
        }
        guard let sign = values["sign"], !sign.isEmpty else { throw NotificationRefusal("unsigned", "an Alipay notification carries sign and sign_type") }
        guard values["sign_type"] == "RSA2" else { throw NotificationRefusal("unsigned", "sign_type is \(values["sign_type"] ?? "missing"), not RSA2") }
        let text = Self.signedText(values.filter { $0.key != "sign" && $0.key != "sign_type" })
        guard let bytes = Data(base64Encoded: sign), RSASHA256.verify(Array(bytes), of: Array(text.utf8), publicKeyPEM: publicKey) else {
            throw NotificationRefusal("forged", "sign does not verify with Alipay's public key")
        }
        guard values["app_id"] == settings.appID else {
            throw NotificationRefusal("merchant", "the notification is for app \(values["app_id"] ?? "?"), not \(settings.appID)")
        }
        let id = values["notify_id"] ?? "", type = values["notify_type"] ?? "trade_status_sync"
        guard let order = values["out_trade_no"], let total = values["total_amount"], let amount = Self.fen(total) else {
            throw NotificationRefusal("unreadable", "the notification has no out_trade_no or a total_amount in yuan")
        }
        let state = values["trade_status"] ?? ""
        let payment = ProviderPayment(
            providerID: values["trade_no"] ?? "", paymentID: ProviderReference.paymentID(merchantOrderNumber: order), amount: amount, currency: "CNY",
            status: Self.status(state), reason: nil, providerStatus: state)
        return ProviderNotification(id: id, type: type, payment: payment)
    }

    /// Alipay reads the text `success`; anything else and it sends the notification again.
    public func answer(accepted: Bool, type: String, outcome: String) -> ProviderAnswer {
        ProviderAnswer(status: 200, contentType: "text/plain; charset=utf-8", body: Array((accepted ? "success" : "failure").utf8))
    }

    var publicKey: String { String(decoding: settings.alipayPublicKey, as: UTF8.self) }

    /// The parameters as Alipay signs them: sorted by name, empty values left out, `k=v` joined by `&`.
    static func signedText(_ values: [String: String]) -> String {
        values.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }

    /// A call's parameters with their signature.
    func signed(_ method: String, biz: [(String, String)], notify: Bool, returnURL: String? = nil) throws -> [(String, String)] {
        var w = JSONWriter()
        w.raw("{")
        for (k, (key, value)) in biz.enumerated() { w.key(key, first: k == 0); w.string(value) }
        w.raw("}")
        var values = [
            "app_id": settings.appID, "method": method, "format": "JSON", "charset": "utf-8", "sign_type": "RSA2",
            "timestamp": Self.chinaTime(Int64(Date().timeIntervalSince1970 * 1000)), "version": "1.0", "biz_content": String(decoding: w.bytes, as: UTF8.self),
        ]
        if notify { values["notify_url"] = settings.notifyURL.absoluteString }
        if let returnURL { values["return_url"] = returnURL }
        let text = Self.signedText(values)
        let signature: [UInt8]
        do { signature = try RSASHA256.sign(Array(text.utf8), privateKeyPEM: settings.privateKey.text) } catch {
            throw ProviderError(provider: name, status: 0, message: "the app key cannot sign: \(error)")
        }
        return values.sorted { $0.key < $1.key } + [("sign", Data(signature).base64EncodedString())]
    }

    /// A call to the gateway; its answer's `…_response` object checked against Alipay's signature over
    /// its exact text, and its code 10000.
    func call(_ method: String, biz: [(String, String)], notify: Bool) throws -> JSONObject {
        let form = ProviderHTTP.form(try signed(method, biz: biz, notify: notify))
        let url = URL(string: settings.gateway.absoluteString + "?charset=utf-8")!
        let answer = try http.send("POST", url, headers: [("Content-Type", "application/x-www-form-urlencoded;charset=utf-8")], body: form)
        guard (200..<300).contains(answer.status) else {
            throw ProviderError(provider: name, status: answer.status, message: "the gateway answered \(answer.status)")
        }
        let key = method.replacingOccurrences(of: ".", with: "_") + "_response"
        let text = String(decoding: answer.body, as: UTF8.self)
        guard let o = (try? JSONParser.parse(answer.body))?.objectValue, let response = (o[key] ?? o["error_response"])?.objectValue else {
            throw unreadable("an answer without \(key)")
        }
        guard response["code"]?.stringValue == "10000" else {
            let words = [response["code"]?.stringValue, response["sub_code"]?.stringValue, response["sub_msg"]?.stringValue ?? response["msg"]?.stringValue]
            throw ProviderError(provider: name, status: answer.status, message: words.compactMap { $0 }.joined(separator: " "))
        }
        guard let sign = o["sign"]?.stringValue, let signature = Data(base64Encoded: sign), let raw = Self.rawObject(named: key, in: text),
            RSASHA256.verify(Array(signature), of: Array(raw.utf8), publicKeyPEM: publicKey)
        else { throw ProviderError(provider: name, status: answer.status, message: "an answer not signed by Alipay") }
        return response
    }

    /// The exact text of the object under `"name":` in `text` (Alipay signs those bytes, not a re-encoding).
    static func rawObject(named name: String, in text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let keyRange = text.range(of: "\"\(name)\"") else { return nil }
        var i = text.utf8.distance(from: text.utf8.startIndex, to: keyRange.upperBound)
        while i < bytes.count && bytes[i] != UInt8(ascii: "{") { i += 1 }
        let start = i
        var depth = 0, inString = false, escaped = false
        while i < bytes.count {
            let c = bytes[i]
            if inString {
                if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true } else if c == UInt8(ascii: "\"") { inString = false }
            } else if c == UInt8(ascii: "\"") {
                inString = true
            } else if c == UInt8(ascii: "{") {
                depth += 1
            } else if c == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return String(decoding: bytes[start...i], as: UTF8.self) }
            }
            i += 1
        }
        return nil
    }

    func unreadable(_ what: String) -> ProviderError { ProviderError(provider: name, status: 200, message: what) }

    /// Fen as yuan with two decimals (`1250` → `12.50`).
    static func yuan(_ fen: Int64) -> String { "\(fen / 100)." + String(format: "%02d", Int(fen % 100)) }

    /// Yuan text as fen; nil unless it is digits with at most two decimals.
    static func fen(_ yuan: String) -> Int64? {
        let parts = yuan.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let whole = Int64(parts[0])
        else { return nil }
        let decimals = parts.count == 2 ? String(parts[1]) : ""
        guard decimals.count <= 2 else { return nil }
        return whole * 100 + (Int64(decimals.padding(toLength: 2, withPad: "0", startingAt: 0)) ?? 0)
    }

    /// `yyyy-MM-dd HH:mm:ss` in China's time, as Alipay's `timestamp` and `time_expire` want.
    static func chinaTime(_ milliseconds: Int64) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(secondsFromGMT: 8 * 3600)
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
