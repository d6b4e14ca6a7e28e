import Foundation
import SeatJSON
import SeatSecrets

/// WeChat Pay API v3 (`api=` in the settings; the test provider in tests). Every request is signed with
/// the merchant's key (`WECHATPAY2-SHA256-RSA2048` over method, path, timestamp, nonce and body) and
/// every answer and notification checked against the platform certificate; a notification's
/// `resource` is opened with the API v3 key (AES-256-GCM). Native payments give a `weixin://` link for a
/// QR code, JSAPI ones the signed parameters WeChat's in-app browser pays with. The merchant's order
/// number is SeatKit's payment id without `pay_`; WeChat's `transaction_id` is the provider's id once
/// paid.
public struct WeChatPayClient: PaymentProvider {
    public let settings: WeChatPaySettings
    let http: ProviderHTTP
    public var name: String { "wechatpay" }

    public init(settings: WeChatPaySettings, http: ProviderHTTP = ProviderHTTP()) {
        self.settings = settings
        self.http = http
    }

    /// How old a signed notification or answer may be (300 s, as the SDKs allow).
    static let tolerance = 300

    public func create(_ request: PaymentRequest) throws -> ProviderCheckout {
        guard request.currency == "CNY" else { throw ProviderError(provider: name, status: 0, message: "WeChat Pay takes CNY, not \(request.currency)") }
        let jsapi = request.method == "jsapi", h5 = request.method == "h5"
        if jsapi && (request.payer ?? "").isEmpty {
            throw ProviderError(provider: name, status: 0, message: "a JSAPI payment needs the buyer's openid (payer)")
        }
        let reference = ProviderReference(paymentID: request.paymentID, providerID: nil, amount: request.amount, currency: request.currency)
        var w = JSONWriter()
        w.raw("{"); w.key("appid", first: true); w.string(settings.appid)
        w.key("mchid"); w.string(settings.mchid)
        w.key("description"); w.string(String(request.description.prefix(127)))
        w.key("out_trade_no"); w.string(reference.merchantOrderNumber)
        if request.expiresAt > 0 { w.key("time_expire"); w.string(Self.chinaTime(request.expiresAt)) }
        w.key("notify_url"); w.string(settings.notifyURL.absoluteString)
        w.key("attach"); w.string(request.holdID)
        w.key("amount"); w.raw("{"); w.key("total", first: true); w.number(Int(request.amount)); w.key("currency"); w.string("CNY"); w.raw("}")
        if jsapi { w.key("payer"); w.raw("{"); w.key("openid", first: true); w.string(request.payer ?? ""); w.raw("}") }
        if h5 {
            // WeChat Pay checks the IP against the phone that opens the page; the type says a mobile site.
            w.key("scene_info"); w.raw("{"); w.key("payer_client_ip", first: true); w.string(request.payerIP ?? "127.0.0.1")
            w.key("h5_info"); w.raw("{"); w.key("type", first: true); w.string("Wap"); w.raw("}}")
        }
        w.raw("}")
        let path = jsapi ? "/v3/pay/transactions/jsapi" : h5 ? "/v3/pay/transactions/h5" : "/v3/pay/transactions/native"
        let answer = try call("POST", path, body: w.bytes)
        var checkout = ProviderCheckout(providerID: nil, amount: request.amount, currency: "CNY")
        if h5 {
            guard let link = answer?["h5_url"]?.stringValue else { throw unreadable("an H5 order without an h5_url") }
            // Back to the show's page after paying: WeChat Pay takes it as `redirect_url`, encoded.
            let back = request.returnURL.map { "&redirect_url=" + ProviderHTTP.formEncoded($0) } ?? ""
            checkout.redirectURL = link + back
        } else if jsapi {
            guard let prepay = answer?["prepay_id"]?.stringValue else { throw unreadable("a JSAPI order without a prepay_id") }
            checkout.jsapi = try jsapiParameters(prepayID: prepay)
        } else {
            guard let link = answer?["code_url"]?.stringValue else { throw unreadable("a Native order without a code_url") }
            checkout.codeURL = link
        }
        return checkout
    }

    /// What WeChat's in-app browser pays with: the app id, a timestamp, a nonce, the prepay package and
    /// their signature (RSA over the four, a line each).
    func jsapiParameters(prepayID: String) throws -> [String: String] {
        let timestamp = String(Int(Date().timeIntervalSince1970)), nonce = Self.nonce(), package = "prepay_id=" + prepayID
        let text = "\(settings.appid)\n\(timestamp)\n\(nonce)\n\(package)\n"
        let signature = try sign(text)
        return ["appId": settings.appid, "timeStamp": timestamp, "nonceStr": nonce, "package": package, "signType": "RSA", "paySign": signature]
    }

    /// Queries the order by its merchant number; one not paid is closed, then read again (a payment that
    /// landed between the two reads as paid).
    public func settle(_ payment: ProviderReference) throws -> ProviderPayment.Status {
        let first = try query(payment)
        guard first == .pending(closable: true) else { return first.status }
        var w = JSONWriter()
        w.raw("{"); w.key("mchid", first: true); w.string(settings.mchid); w.raw("}")
        do { _ = try call("POST", "/v3/pay/transactions/out-trade-no/\(payment.merchantOrderNumber)/close", body: w.bytes) } catch is ProviderError {}
        return try query(payment).status
    }

    enum Standing: Equatable {
        case done(ProviderPayment.Status)
        case pending(closable: Bool)
        var status: ProviderPayment.Status {
            if case .done(let s) = self { return s }
            return .pending
        }
    }

    func query(_ payment: ProviderReference) throws -> Standing {
        let path = "/v3/pay/transactions/out-trade-no/\(payment.merchantOrderNumber)?mchid=\(settings.mchid)"
        let answer: JSONObject?
        do { answer = try call("GET", path, body: nil) } catch let error as ProviderError where error.status == 404 {
            return .done(.canceled)  // ORDER_NOT_EXIST: never made, nothing to pay
        }
        switch answer?["trade_state"]?.stringValue {
        case "SUCCESS", "REFUND": return .done(.succeeded)
        case "CLOSED", "REVOKED": return .done(.canceled)
        case "PAYERROR": return .done(.failed)
        case "USERPAYING", "ACCEPT": return .pending(closable: false)
        case "NOTPAY": return .pending(closable: true)
        default: throw unreadable("an order whose trade_state is \(answer?["trade_state"]?.stringValue ?? "missing")")
        }
    }

    public func refund(_ payment: ProviderReference, amount: Int64, key: String, reason: String) throws -> ProviderRefund {
        var w = JSONWriter()
        w.raw("{"); w.key("out_trade_no", first: true); w.string(payment.merchantOrderNumber)
        w.key("out_refund_no"); w.string(String(key.prefix(64)))
        w.key("reason"); w.string(String(reason.prefix(80)))
        w.key("amount"); w.raw("{"); w.key("refund", first: true); w.number(Int(amount)); w.key("total"); w.number(Int(payment.amount))
        w.key("currency"); w.string("CNY"); w.raw("}")
        w.raw("}")
        let answer = try call("POST", "/v3/refund/domestic/refunds", body: w.bytes)
        let id = answer?["refund_id"]?.stringValue ?? ""
        switch answer?["status"]?.stringValue {
        case "SUCCESS": return ProviderRefund(id: id, state: .succeeded)
        case "PROCESSING": return ProviderRefund(id: id, state: .pending)
        case let other: return ProviderRefund(id: id, state: .failed, reason: "WeChat Pay says the refund is \(other ?? "unknown")")
        }
    }

    /// A notification: signed by the platform certificate named in `Wechatpay-Serial` within 300 s, its
    /// `resource` opened with the API v3 key, and for this merchant and app.
    public func notification(header: (String) -> String?, body: [UInt8], now: Int) throws(NotificationRefusal) -> ProviderNotification {
        guard let timestamp = header("wechatpay-timestamp"), let nonce = header("wechatpay-nonce"), let signature = header("wechatpay-signature"),
            let serial = header("wechatpay-serial")
        else { throw NotificationRefusal("unsigned", "a WeChat Pay notification carries Wechatpay-Timestamp, -Nonce, -Signature and -Serial") }
        try checkSigned(timestamp: timestamp, nonce: nonce, signature: signature, serial: serial, body: body, now: now)
        guard let o = (try? JSONParser.parse(body))?.objectValue, let id = o["id"]?.stringValue, let type = o["event_type"]?.stringValue,
            let resource = o["resource"]?.objectValue
        else { throw NotificationRefusal("unreadable", "not a WeChat Pay notification (id, event_type, resource)") }
        guard resource["algorithm"]?.stringValue == "AEAD_AES_256_GCM", let cipher = resource["ciphertext"]?.stringValue.flatMap({ Data(base64Encoded: $0) }),
            let iv = resource["nonce"]?.stringValue
        else { throw NotificationRefusal("unreadable", "the resource is not AEAD_AES_256_GCM with a base64 ciphertext and a nonce") }
        guard
            let plain = AES256GCM.open(
                Array(cipher), key: settings.apiV3Key.bytes, nonce: Array(iv.utf8), associatedData: Array((resource["associated_data"]?.stringValue ?? "").utf8)
            )
        else { throw NotificationRefusal("forged", "the resource does not open with this merchant's API v3 key") }
        guard type.hasPrefix("TRANSACTION."), resource["original_type"]?.stringValue == "transaction" else {
            return ProviderNotification(id: id, type: type, payment: nil)
        }
        guard let t = (try? JSONParser.parse(plain))?.objectValue, let order = t["out_trade_no"]?.stringValue,
            let amount = t["amount"]?.objectValue?["total"]?.intValue
        else { throw NotificationRefusal("unreadable", "the transaction has no out_trade_no or amount.total") }
        guard t["mchid"]?.stringValue == settings.mchid, t["appid"]?.stringValue == settings.appid else {
            throw NotificationRefusal(
                "merchant", "the transaction is for merchant \(t["mchid"]?.stringValue ?? "?") app \(t["appid"]?.stringValue ?? "?"), not this one")
        }
        let state = t["trade_state"]?.stringValue ?? ""
        let status: ProviderPayment.Status =
            switch state {
            case "SUCCESS": .succeeded
            case "CLOSED", "REVOKED": .canceled
            case "PAYERROR": .failed
            default: .pending
            }
        let payment = ProviderPayment(
            providerID: t["transaction_id"]?.stringValue ?? "", paymentID: ProviderReference.paymentID(merchantOrderNumber: order), amount: Int64(amount),
            currency: t["amount"]?.objectValue?["currency"]?.stringValue ?? "CNY", status: status,
            reason: status == .failed ? t["trade_state_desc"]?.stringValue : nil, providerStatus: state)
        return ProviderNotification(id: id, type: type, payment: payment)
    }

    /// WeChat Pay counts 200 or 204 as received; anything else with `{"code":"FAIL"}` is sent again.
    public func answer(accepted: Bool, type: String, outcome: String) -> ProviderAnswer {
        if accepted { return ProviderAnswer(status: 204, contentType: "application/json", body: []) }
        var w = JSONWriter()
        w.raw("{"); w.key("code", first: true); w.string("FAIL"); w.key("message"); w.string(outcome); w.raw("}")
        return ProviderAnswer(status: 400, contentType: "application/json", body: w.bytes)
    }

    func checkSigned(timestamp: String, nonce: String, signature: String, serial: String, body: [UInt8], now: Int) throws(NotificationRefusal) {
        guard let at = Int(timestamp), abs(now - at) <= Self.tolerance else {
            throw NotificationRefusal("stale", "Wechatpay-Timestamp \(timestamp.prefix(20)) is more than \(Self.tolerance) s from now")
        }
        guard serial.uppercased() == settings.platformSerial.uppercased() else {
            throw NotificationRefusal("forged", "signed by certificate \(serial.prefix(40)), not the platform certificate \(settings.platformSerial)")
        }
        let message = Array("\(timestamp)\n\(nonce)\n".utf8) + body + [0x0A]
        guard let bytes = Data(base64Encoded: signature),
            RSASHA256.verify(Array(bytes), of: message, publicKeyPEM: String(decoding: settings.platformCertificate, as: UTF8.self))
        else { throw NotificationRefusal("forged", "Wechatpay-Signature does not verify with the platform certificate") }
    }

    /// A signed call; its answer checked against the platform certificate. nil for an empty answer (204).
    func call(_ method: String, _ path: String, body: [UInt8]?) throws -> JSONObject? {
        let timestamp = String(Int(Date().timeIntervalSince1970)), nonce = Self.nonce()
        let url = URL(string: settings.api.absoluteString.trimmingSuffix("/") + path)!
        let signedPath = url.path + (url.query.map { "?" + $0 } ?? "")
        let text = "\(method)\n\(signedPath)\n\(timestamp)\n\(nonce)\n" + String(decoding: body ?? [], as: UTF8.self) + "\n"
        let authorization =
            "WECHATPAY2-SHA256-RSA2048 mchid=\"\(settings.mchid)\",nonce_str=\"\(nonce)\",signature=\"\(try sign(text))\","
            + "timestamp=\"\(timestamp)\",serial_no=\"\(settings.serial)\""
        var headers = [("Authorization", authorization), ("Accept", "application/json"), ("User-Agent", "SeatKit")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let answer = try http.send(method, url, headers: headers, body: body)
        let object = answer.body.isEmpty ? nil : (try? JSONParser.parse(answer.body))?.objectValue
        guard (200..<300).contains(answer.status) else {
            let message = [object?["code"]?.stringValue, object?["message"]?.stringValue].compactMap { $0 }.joined(separator: ": ")
            throw ProviderError(provider: name, status: answer.status, message: message.isEmpty ? "no reason given" : message)
        }
        do {
            try checkSigned(
                timestamp: answer.headers["wechatpay-timestamp"] ?? "", nonce: answer.headers["wechatpay-nonce"] ?? "",
                signature: answer.headers["wechatpay-signature"] ?? "", serial: answer.headers["wechatpay-serial"] ?? "", body: answer.body,
                now: Int(Date().timeIntervalSince1970))
        } catch { throw ProviderError(provider: name, status: answer.status, message: "an answer not signed by WeChat Pay: \(error.message)") }
        if !answer.body.isEmpty && object == nil { throw unreadable("an answer that is not a JSON object") }
        return object
    }

    func sign(_ text: String) throws -> String {
        do { return Data(try RSASHA256.sign(Array(text.utf8), privateKeyPEM: settings.privateKey.text)).base64EncodedString() } catch {
            throw ProviderError(provider: name, status: 0, message: "the merchant key cannot sign: \(error)")
        }
    }

    func unreadable(_ what: String) -> ProviderError { ProviderError(provider: name, status: 200, message: what) }

    /// 32 random hexadecimal characters.
    static func nonce() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02X", g.next() as UInt8) }.joined()
    }

    /// RFC 3339 in China's time (`2026-12-06T20:15:00+08:00`), as WeChat Pay's `time_expire` wants.
    static func chinaTime(_ milliseconds: Int64) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(secondsFromGMT: 8 * 3600)
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
