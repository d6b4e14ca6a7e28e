import Foundation
import SeatJSON

/// A payment SeatKit asks a provider to take: for one hold, in the currency's minor units.
public struct PaymentRequest: Sendable, Hashable {
    /// SeatKit's id (`pay_…`): the provider's idempotency key and metadata carry it, so a retried call
    /// is the same payment and a notification names it.
    public var paymentID: String
    public var holdID: String
    public var showID: String
    public var amount: Int64
    /// ISO 4217, upper case (`CNY`).
    public var currency: String
    /// What the buyer's statement says.
    public var description: String
    /// How the buyer pays where the provider has several ways (WeChat Pay `native`, `h5` or `jsapi`,
    /// Alipay `qr`, `page` or `wap`); nil: the provider's first.
    public var method: String?
    /// WeChat Pay JSAPI: the buyer's `openid` under the merchant's app.
    public var payer: String?
    /// When the payment window ends (unix ms): the provider refuses the payment after it.
    public var expiresAt: Int64
    /// Where the provider's own page sends the buyer back after paying (WeChat Pay H5, Alipay page and
    /// wap): the buyer's page of the show.
    public var returnURL: String?
    /// WeChat Pay H5: the buyer's IP address, which WeChat Pay checks against the phone that pays.
    public var payerIP: String?

    public init(
        paymentID: String, holdID: String, showID: String, amount: Int64, currency: String, description: String, method: String? = nil,
        payer: String? = nil, expiresAt: Int64 = 0, returnURL: String? = nil, payerIP: String? = nil
    ) {
        self.paymentID = paymentID; self.holdID = holdID; self.showID = showID; self.amount = amount; self.currency = currency
        self.description = description; self.method = method; self.payer = payer; self.expiresAt = expiresAt
        self.returnURL = returnURL; self.payerIP = payerIP
    }
}

/// What a provider says of a payment: its own id, the amount and currency it is for, the payment of
/// SeatKit's it names, and where it stands.
public struct ProviderPayment: Sendable, Hashable {
    public enum Status: String, Sendable { case pending, succeeded, failed, canceled }
    public var providerID: String
    public var paymentID: String?
    public var amount: Int64
    public var currency: String
    public var status: Status
    /// The provider's reason, for a failure.
    public var reason: String?
    /// The provider's own word for the status (Stripe's `requires_payment_method`, `processing`…).
    public var providerStatus: String? = nil
}

/// A provider's refusal or an answer SeatKit cannot read: the provider's own words, never a secret.
public struct ProviderError: Error, Sendable, CustomStringConvertible {
    public var provider: String
    public var status: Int
    public var message: String
    public var description: String { "\(provider) answered \(status): \(message)" }
}

/// Stripe's PaymentIntents API (`api=` in the settings; localstripe in tests): a payment is a
/// PaymentIntent made with SeatKit's payment id as its idempotency key and metadata, paid by the
/// buyer's page with its client secret, and reported by a signed webhook (`StripeSignature`).
public struct StripeClient: PaymentProvider {
    public var name: String { "stripe" }
    public let settings: StripeSettings
    let http: ProviderHTTP

    public init(settings: StripeSettings, http: ProviderHTTP = ProviderHTTP()) {
        self.settings = settings
        self.http = http
    }

    /// A new PaymentIntent for `request` (the same one again for a retry with the same payment id): the
    /// provider's view of it and the client secret the buyer's page pays with.
    public func createIntent(_ request: PaymentRequest) throws -> (payment: ProviderPayment, clientSecret: String) {
        let body = ProviderHTTP.form([
            ("amount", String(request.amount)), ("currency", request.currency.lowercased()), ("payment_method_types[]", "card"),
            ("metadata[payment]", request.paymentID), ("metadata[hold]", request.holdID), ("metadata[show]", request.showID),
            ("metadata[description]", request.description),
        ])
        let object = try call("POST", "/v1/payment_intents", body: body, idempotencyKey: request.paymentID)
        guard let intent = Self.intent(object), let secret = object["client_secret"]?.stringValue else {
            throw ProviderError(provider: "stripe", status: 200, message: "a PaymentIntent without an id, amount or client secret")
        }
        return (intent, secret)
    }

    /// Where PaymentIntent `id` stands before its hold may end: paid (`succeeded`), still being paid
    /// (`pending`: Stripe is processing it), or closed here and now (`canceled`: an unpaid intent is
    /// cancelled, so the buyer cannot pay it after the seats went back to sale). A cancellation Stripe
    /// refuses because the intent was paid meanwhile reads it again.
    public func settle(intent id: String) throws -> ProviderPayment.Status {
        let now = try intent(id: id)
        switch now.status {
        case .succeeded, .canceled: return now.status
        case .pending where Self.processing.contains(now.providerStatus ?? ""): return .pending
        case .pending, .failed:
            do {
                let closed = try call("POST", "/v1/payment_intents/\(id)/cancel", body: [], idempotencyKey: nil)
                return Self.intent(closed)?.status ?? .canceled
            } catch is ProviderError {
                return try intent(id: id).status
            }
        }
    }

    /// Stripe's statuses of an intent being paid right now (not to be cancelled under it).
    static let processing: Set<String> = ["processing", "requires_capture"]

    /// Gives `amount` of PaymentIntent `id` back (the whole when nil); `key` makes a retry the same
    /// refund. Stripe's state of it: `succeeded`, `pending`, `failed` or `canceled`.
    public func refund(intent id: String, amount: Int64?, key: String) throws -> (id: String, status: String) {
        var fields = [("payment_intent", id)]
        if let amount { fields.append(("amount", String(amount))) }
        let object = try call("POST", "/v1/refunds", body: ProviderHTTP.form(fields), idempotencyKey: key)
        guard let refund = object["id"]?.stringValue, let status = object["status"]?.stringValue else {
            throw ProviderError(provider: "stripe", status: 200, message: "a refund without an id or a status")
        }
        return (refund, status)
    }

    /// The PaymentIntent as Stripe has it now (asked when no notification came).
    public func intent(id: String) throws -> ProviderPayment {
        let object = try call("GET", "/v1/payment_intents/" + id, body: nil, idempotencyKey: nil)
        guard let intent = Self.intent(object) else { throw ProviderError(provider: "stripe", status: 200, message: "an unreadable PaymentIntent") }
        return intent
    }

    @discardableResult
    func call(_ method: String, _ path: String, body: [UInt8]?, idempotencyKey: String?) throws -> JSONObject {
        var headers = [("Authorization", "Bearer " + settings.secretKey.text), ("Stripe-Version", "2024-06-20")]
        if body != nil { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        if let idempotencyKey { headers.append(("Idempotency-Key", idempotencyKey)) }
        let url = settings.api.appendingPathComponent(String(path.dropFirst()))
        let answer = try http.send(method, url, headers: headers, body: body)
        let object = (try? JSONParser.parse(answer.body))?.objectValue
        guard (200..<300).contains(answer.status), let object else {
            let message = object?["error"]?.objectValue?["message"]?.stringValue ?? String(decoding: answer.body.prefix(200), as: UTF8.self)
            throw ProviderError(provider: "stripe", status: answer.status, message: message)
        }
        return object
    }

    /// A PaymentIntent object (in an answer or an event) as SeatKit reads it.
    static func intent(_ o: JSONObject) -> ProviderPayment? {
        guard o["object"]?.stringValue == "payment_intent", let id = o["id"]?.stringValue, let amount = o["amount"]?.intValue,
            let currency = o["currency"]?.stringValue
        else { return nil }
        let status: ProviderPayment.Status
        switch o["status"]?.stringValue {
        case "succeeded": status = .succeeded
        case "canceled": status = .canceled
        default: status = o["last_payment_error"]?.objectValue == nil ? .pending : .failed
        }
        return ProviderPayment(
            providerID: id, paymentID: o["metadata"]?.objectValue?["payment"]?.stringValue, amount: Int64(amount), currency: currency.uppercased(),
            status: status, reason: o["last_payment_error"]?.objectValue?["message"]?.stringValue, providerStatus: o["status"]?.stringValue)
    }

    /// A webhook's event, once its signature is checked: its id, type and the PaymentIntent it is
    /// about; nil for an event that is not about a PaymentIntent (answered and ignored).
    public static func event(_ body: [UInt8]) throws -> (id: String, type: String, payment: ProviderPayment?) {
        guard let o = (try? JSONParser.parse(body))?.objectValue, let id = o["id"]?.stringValue, let type = o["type"]?.stringValue else {
            throw ProviderError(provider: "stripe", status: 0, message: "an event that is not a JSON object with an id and a type")
        }
        let object = o["data"]?.objectValue?["object"]?.objectValue
        var payment = object.flatMap(intent)
        // The event's type says what happened to it, whatever the object's status field says.
        if type == "payment_intent.payment_failed" { payment?.status = .failed }
        if type == "payment_intent.canceled" { payment?.status = .canceled }
        return (id, type, payment)
    }

    public func create(_ request: PaymentRequest) throws -> ProviderCheckout {
        let (intent, secret) = try createIntent(request)
        var checkout = ProviderCheckout(providerID: intent.providerID, amount: intent.amount, currency: intent.currency)
        checkout.clientSecret = secret
        return checkout
    }

    public func settle(_ payment: ProviderReference) throws -> ProviderPayment.Status {
        guard let id = payment.providerID else { return .canceled }
        return try settle(intent: id)
    }

    public func refund(_ payment: ProviderReference, amount: Int64, key: String, reason: String) throws -> ProviderRefund {
        let (id, status) = try refund(intent: payment.providerID ?? "", amount: amount == payment.amount ? nil : amount, key: key)
        switch status {
        case "succeeded": return ProviderRefund(id: id, state: .succeeded)
        case "pending", "requires_action": return ProviderRefund(id: id, state: .pending)
        default: return ProviderRefund(id: id, state: .failed, reason: "stripe says the refund is \(status)")
        }
    }

    /// A webhook signed with the endpoint's secret within 300 s (`StripeSignature`).
    public func notification(header: (String) -> String?, body: [UInt8], now: Int) throws(NotificationRefusal) -> ProviderNotification {
        do { try StripeSignature.verify(header: header("stripe-signature"), body: body, secret: settings.webhookSecret, now: now) } catch {
            let why =
                switch error {
                case .mismatch: "forged"
                case .stale: "stale"
                case .malformed: "unsigned"
                }
            throw NotificationRefusal(why, error.description)
        }
        do {
            let event = try Self.event(body)
            return ProviderNotification(id: event.id, type: event.type, payment: event.payment)
        } catch { throw NotificationRefusal("unreadable", "\(error)") }
    }

    /// Stripe shows a webhook's answer to the operator and retries anything but a 2xx.
    public func answer(accepted: Bool, type: String, outcome: String) -> ProviderAnswer {
        var w = JSONWriter()
        w.raw("{"); w.key("received", first: true); w.raw(accepted ? "true" : "false"); w.key("type"); w.string(type); w.key("outcome"); w.string(outcome)
        w.raw("}")
        return ProviderAnswer(status: accepted ? 200 : 400, contentType: "application/json", body: w.bytes)
    }
}
